import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JOURNAL_MIGRATIONS } from '../../src/journal/index.js';
import {
  migrate,
  PostgresStore,
  perCount,
  rowPlaceholders,
  runTogether,
  runWrites,
  type Store,
  schemaVersion,
  type Write,
} from '../../src/store/index.js';
import { ENGINES, freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`store adapter contract: ${engine.name}`, () => {
    const opened: Array<{ store: Store; cleanup: () => Promise<void> }> = [];
    afterEach(async () => {
      for (const { store, cleanup } of opened.splice(0)) {
        await store.close().catch(() => undefined);
        await cleanup();
      }
    });
    const fresh = async () => {
      const f = await engine.fresh();
      opened.push(f);
      return f;
    };

    it('migrates each module to its latest version, idempotently, from several openers at once', async () => {
      const { store, reopen } = await fresh();
      const sets = {
        alpha: [
          { name: 'a1', up: 'CREATE TABLE alpha_one (project TEXT NOT NULL, n BIGINT)' },
          { name: 'a2', up: 'CREATE TABLE alpha_two (project TEXT NOT NULL)' },
        ],
        beta: [
          {
            name: 'b1',
            up: {
              sqlite: 'CREATE TABLE beta_one (x BLOB)',
              postgres: 'CREATE TABLE beta_one (x BYTEA)',
            },
          },
        ],
      };
      const others = [reopen(), reopen(), reopen()];
      const applied = await Promise.all([store, ...others].map((s) => migrate(s, sets)));
      expect(applied.reduce((a, b) => a + b, 0)).toBe(3);
      for (const s of others) await s.close();
      expect(await schemaVersion(store, 'alpha')).toBe(2);
      expect(await schemaVersion(store, 'beta')).toBe(1);
      expect(await schemaVersion(store, 'journal')).toBe(JOURNAL_MIGRATIONS.length);
      expect(await migrate(store, sets)).toBe(0);
      await expect(
        migrate(store, { gamma: [{ name: 'bad', up: 'CREATE TABLE alpha_one (x INT)' }] }),
      ).rejects.toThrow();
      expect(await schemaVersion(store, 'gamma')).toBe(0);
    });

    it('refuses a schema a newer canonry migrated further, before applying anything', async () => {
      const { store } = await fresh();
      const alpha = [{ name: 'a1', up: 'CREATE TABLE alpha_one (project TEXT NOT NULL)' }];
      const beta = [{ name: 'b1', up: 'CREATE TABLE beta_one (project TEXT NOT NULL)' }];
      expect(await migrate(store, { alpha })).toBe(1);
      // A newer canonry's second alpha migration, recorded as it records its own.
      await store.run(
        'INSERT INTO canonry_migrations (module, version, name, applied_at) VALUES ($1, $2, $3, $4)',
        ['alpha', 2, 'a2 of a newer canonry', '2027-01-01T00:00:00.000Z'],
      );
      const refused = await migrate(store, { alpha, beta }).catch((err: unknown) => err);
      expect(refused).toMatchObject({
        code: 'SCHEMA_TOO_NEW',
        details: { module: 'alpha', recorded: 2, known: 1 },
      });
      expect(String((refused as Error).message)).toMatch(
        /its alpha schema is at version 2, and this canonry knows 1/,
      );
      // Nothing of the other module was applied: refused before the first migration.
      expect(await schemaVersion(store, 'beta')).toBe(0);
      await expect(store.all('SELECT * FROM beta_one')).rejects.toThrow();
      // A caller that opens the database for other modules only is not refused for alpha's.
      expect(await migrate(store, { beta })).toBe(1);
      // One that knows as many as recorded goes on.
      expect(await migrate(store, { alpha: [...alpha, { name: 'a2', up: 'SELECT 1' }] })).toBe(0);
    });

    it('binds $n placeholders, including one used twice, and returns numbers for BIGINT', async () => {
      const { store } = await fresh();
      await store.exec('CREATE TABLE t (k TEXT PRIMARY KEY, n BIGINT NOT NULL, note TEXT)');
      expect(
        await store.run('INSERT INTO t (k, n, note) VALUES ($1, $2, $3)', ['a', 2 ** 40, null]),
      ).toBe(1);
      await store.run('INSERT INTO t (k, n, note) VALUES ($1, $2, $1)', ['b', 7]);
      const rows = await store.all<{ k: string; n: number; note: string | null }>(
        'SELECT k, n, note FROM t WHERE n > $1 OR k = $2 ORDER BY k',
        [5, 'zz'],
      );
      expect(rows).toEqual([
        { k: 'a', n: 2 ** 40, note: null },
        { k: 'b', n: 7, note: 'b' },
      ]);
    });

    it('returns rows as arrays in select order through values, alongside objects for the same text', async () => {
      const { store } = await fresh();
      await store.exec('CREATE TABLE v (k TEXT PRIMARY KEY, n BIGINT NOT NULL, note TEXT)');
      await store.run('INSERT INTO v (k, n, note) VALUES ($1, $2, $3), ($4, $5, $6)', [
        'a',
        2 ** 40,
        null,
        'b',
        7,
        'x',
      ]);
      const sql = 'SELECT note, n, k FROM v WHERE n > $1 ORDER BY k';
      // One text read both ways, in either order: a cached statement must not leak its row shape.
      expect(await store.all(sql, [0])).toEqual([
        { note: null, n: 2 ** 40, k: 'a' },
        { note: 'x', n: 7, k: 'b' },
      ]);
      expect(await store.values<[string | null, number, string]>(sql, [0])).toEqual([
        [null, 2 ** 40, 'a'],
        ['x', 7, 'b'],
      ]);
      expect(await store.all(sql, [10])).toEqual([{ note: null, n: 2 ** 40, k: 'a' }]);
      const inside = await store.transaction(async (tx) => {
        // A statement that returns nothing runs and yields no rows.
        expect(await tx.values('UPDATE v SET n = n + 1 WHERE k = $1', ['b'])).toEqual([]);
        return tx.values(sql, [0]);
      });
      expect(inside).toEqual([
        [null, 2 ** 40, 'a'],
        ['x', 8, 'b'],
      ]);
      expect(await store.values(`SELECT k FROM v WHERE k = $1`, ['none'])).toEqual([]);
    });

    it('commits a transaction as a whole and rolls back all of it on a throw', async () => {
      const { store } = await fresh();
      await store.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
      await store.transaction(async (tx) => {
        await tx.run('INSERT INTO t (k) VALUES ($1)', ['kept']);
      });
      await expect(
        store.transaction(async (tx) => {
          await tx.run('INSERT INTO t (k) VALUES ($1)', ['lost']);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      await expect(
        store.transaction(async (tx) => {
          await tx.run('INSERT INTO t (k) VALUES ($1)', ['also-lost']);
          await tx.run('INSERT INTO t (k) VALUES ($1)', ['kept']);
        }),
      ).rejects.toThrow();
      expect(await store.all('SELECT k FROM t')).toEqual([{ k: 'kept' }]);
    });

    it('runs writes to different tables together, as one statement on PostgreSQL, or refuses them', async () => {
      const { store } = await fresh();
      await store.exec(
        'CREATE TABLE wa (k TEXT PRIMARY KEY, v TEXT); CREATE TABLE wb (k TEXT PRIMARY KEY, n BIGINT); CREATE TABLE wc (k TEXT PRIMARY KEY)',
      );
      await store.run('INSERT INTO wb (k, n) VALUES ($1, $2)', ['b1', 1]);
      await store.run('INSERT INTO wc (k) VALUES ($1)', ['c1']);
      const writes: Write[] = [
        { sql: 'INSERT INTO wa (k, v) VALUES ($1, $2), ($3, $2)', params: ['a1', 'x', 'a2'] },
        {
          sql: 'INSERT INTO wb (k, n) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET n = $2',
          params: ['b1', 7],
        },
        { sql: 'DELETE FROM wc WHERE k = $1', params: ['c1'] },
      ];
      const queries = vi.spyOn(pg.Client.prototype, 'query');
      await store.transaction(async (tx) => {
        queries.mockClear();
        await runTogether(tx, writes);
        // One round trip on PostgreSQL (the writes as parts of one WITH); one by one on SQLite.
        if (engine.name === 'postgres') expect(queries).toHaveBeenCalledTimes(1);
      });
      queries.mockRestore();
      expect(await store.all('SELECT k, v FROM wa ORDER BY k')).toEqual([
        { k: 'a1', v: 'x' },
        { k: 'a2', v: 'x' },
      ]);
      expect(await store.all('SELECT k, n FROM wb')).toEqual([{ k: 'b1', n: 7 }]);
      expect(await store.all('SELECT k FROM wc')).toEqual([]);
      // All or nothing: a write that fails takes the others of its transaction with it.
      await expect(
        store.transaction((tx) =>
          runTogether(tx, [
            { sql: 'INSERT INTO wb (k, n) VALUES ($1, $2)', params: ['b2', 2] },
            { sql: 'INSERT INTO wa (k, v) VALUES ($1, $2)', params: ['a1', 'again'] },
          ]),
        ),
      ).rejects.toThrow();
      expect(await store.all('SELECT k FROM wb ORDER BY k')).toEqual([{ k: 'b1' }]);
      // What would change its meaning run as one statement is refused before anything runs.
      for (const bad of [
        [writes[0]!, { sql: 'UPDATE wa SET v = $1', params: ['y'] }],
        [{ sql: 'SELECT k FROM wa', params: [] }, writes[1]!],
        [{ sql: 'DELETE FROM wc; DELETE FROM wa', params: [] }, writes[1]!],
      ]) {
        await expect(store.transaction((tx) => runTogether(tx, bad))).rejects.toMatchObject({
          code: 'INTERNAL',
        });
      }
      expect(await store.all('SELECT k, v FROM wa ORDER BY k')).toHaveLength(2);
    });

    it("runs each table's first write together and the further ones after, in order", async () => {
      const { store } = await fresh();
      await store.exec(
        'CREATE TABLE pa (k TEXT PRIMARY KEY, p TEXT); CREATE TABLE pb (k TEXT PRIMARY KEY)',
      );
      // Rows in pieces sharing their leading values, as a long list is written.
      const piece = (ks: string[]) => ({
        sql: `INSERT INTO pa (p, k) VALUES ${rowPlaceholders(ks.length, 1, 1)}`,
        params: ['shared', ...ks],
      });
      const queries = vi.spyOn(pg.Client.prototype, 'query');
      await store.transaction(async (tx) => {
        queries.mockClear();
        await runWrites(tx, [
          piece(['a1', 'a2']),
          { sql: 'INSERT INTO pb (k) VALUES ($1)', params: ['b1'] },
          piece(['a3']),
        ]);
        // The first piece of pa with pb's row in one statement, pa's second piece after it.
        if (engine.name === 'postgres') expect(queries).toHaveBeenCalledTimes(2);
      });
      queries.mockRestore();
      expect(await store.all('SELECT k, p FROM pa ORDER BY k')).toEqual([
        { k: 'a1', p: 'shared' },
        { k: 'a2', p: 'shared' },
        { k: 'a3', p: 'shared' },
      ]);
      expect(await store.all('SELECT k FROM pb')).toEqual([{ k: 'b1' }]);
    });

    it('keeps concurrent transactions from seeing or breaking each other', async () => {
      const { store } = await fresh();
      await store.exec('CREATE TABLE c (id TEXT PRIMARY KEY, n BIGINT NOT NULL)');
      await store.run('INSERT INTO c (id, n) VALUES ($1, 0)', ['x']);
      const lock = store.capabilities.rowLocks ? ' FOR UPDATE' : '';
      await Promise.all(
        Array.from({ length: 40 }, () =>
          store.transaction(async (tx) => {
            const [row] = await tx.all<{ n: number }>(`SELECT n FROM c WHERE id = $1${lock}`, [
              'x',
            ]);
            await tx.run('UPDATE c SET n = $1 WHERE id = $2', [row!.n + 1, 'x']);
          }),
        ),
      );
      expect(await store.all('SELECT n FROM c')).toEqual([{ n: 40 }]);
    });

    it('describes itself without a password and refuses use after close', async () => {
      const { store } = await fresh();
      expect(store.description).not.toMatch(/:[^/@:]+@/);
      await store.close();
      await expect(store.all('SELECT 1')).rejects.toThrow();
    });
  });
}

describe.skipIf(!postgresAvailable)('PostgreSQL prepared statements', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let store: PostgresStore;
  let other: pg.Client;
  beforeEach(async () => {
    schema = await freshPostgresSchema();
    // One connection, so every statement below runs on the connection the assertions inspect.
    store = new PostgresStore({ connectionString: schema.url, max: 1 });
    other = new pg.Client({ connectionString: schema.url });
    await other.connect();
    await store.exec('CREATE TABLE t (a INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2)');
  });
  afterEach(async () => {
    await store.close();
    await other.end();
    await schema.drop();
  });

  it('a parameterised statement is prepared once per connection and reused', async () => {
    const text = 'SELECT a FROM t WHERE a >= $1 ORDER BY a';
    expect(await store.all(text, [1])).toEqual([{ a: 1 }, { a: 2 }]);
    expect(await store.all(text, [2])).toEqual([{ a: 2 }]);
    await store.transaction(async (tx) => expect(await tx.all(text, [2])).toEqual([{ a: 2 }]));
    const prepared = await store.all<{ name: string }>(
      'SELECT name FROM pg_prepared_statements WHERE statement = $1',
      [text],
    );
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.name).toMatch(/^canonry_[0-9a-f]{24}$/);
  });

  it('a statement without parameters still runs several commands in one text', async () => {
    await store.run('INSERT INTO t VALUES (3); INSERT INTO t VALUES (4)');
    expect(await store.all('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 4 }]);
  });

  it('another process adding a column does not break a prepared SELECT *, outside or inside a transaction', async () => {
    const text = 'SELECT * FROM t WHERE a = $1';
    expect(await store.all(text, [1])).toEqual([{ a: 1 }]);
    await other.query('ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 7');
    expect(await store.all(text, [1])).toEqual([{ a: 1, b: 7 }]);
    await other.query("ALTER TABLE t ADD COLUMN c TEXT NOT NULL DEFAULT 'x'");
    let attempts = 0;
    const rows = await store.transaction(async (tx) => {
      attempts++;
      await tx.run('UPDATE t SET b = b + 1 WHERE a = $1', [2]);
      return tx.all(text, [2]);
    });
    // The first attempt failed on the stale plan and was rolled back whole: b moved once.
    expect(attempts).toBe(2);
    expect(rows).toEqual([{ a: 2, b: 8, c: 'x' }]);
  });
});

describe('perCount', () => {
  it('makes the text of each count once and gives the very same text after', () => {
    const made: number[] = [];
    const sql = perCount((n) => {
      made.push(n);
      return `INSERT INTO t (k) VALUES ${rowPlaceholders(n, 1)}`;
    });
    const three = sql(3);
    expect(three).toBe('INSERT INTO t (k) VALUES ($1), ($2), ($3)');
    expect(sql(2)).toBe('INSERT INTO t (k) VALUES ($1), ($2)');
    expect(sql(3)).toBe(three);
    expect(made).toEqual([3, 2]);
  });
});
