import { afterEach, describe, expect, it } from 'vitest';
import { migrate, type Store, schemaVersion } from '../../src/store/index.js';
import { ENGINES } from '../helpers/stores.js';

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
      expect(await schemaVersion(store, 'journal')).toBe(1);
      expect(await migrate(store, sets)).toBe(0);
      await expect(
        migrate(store, { gamma: [{ name: 'bad', up: 'CREATE TABLE alpha_one (x INT)' }] }),
      ).rejects.toThrow();
      expect(await schemaVersion(store, 'gamma')).toBe(0);
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
