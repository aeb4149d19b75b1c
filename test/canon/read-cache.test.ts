// The read cache a batch plans through: a plain read repeated before the next write is answered
// from the first, and anything else (a write, a locking read, a read that calls a function) makes it
// read again — on both engines, inside a real transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withReadCache } from '../../src/canon/read-cache.js';
import {
  type Queryable,
  runTogether,
  type SqlValue,
  type Store,
  type Write,
} from '../../src/store/index.js';
import { ENGINES } from '../helpers/stores.js';

/** `tx` with every statement it is sent counted. */
function counted(tx: Queryable): { tx: Queryable; sent: string[] } {
  const sent: string[] = [];
  const note = (sql: string) => {
    sent.push(sql);
  };
  return {
    sent,
    tx: {
      all: (sql, params) => {
        note(sql);
        return tx.all(sql, params);
      },
      values: (sql, params) => {
        note(sql);
        return tx.values(sql, params);
      },
      run: (sql, params) => {
        note(sql);
        return tx.run(sql, params);
      },
      exec: (sql) => {
        note(sql);
        return tx.exec(sql);
      },
      ...(tx.runTogether
        ? {
            runTogether: (writes: readonly Write[]) => {
              note(`together: ${writes.length}`);
              return tx.runTogether!(writes);
            },
          }
        : {}),
    },
  };
}

const SELECT = 'SELECT name, size FROM cache_t WHERE project = $1 ORDER BY name';
const P: SqlValue[] = ['p'];

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`read cache (${engine.name})`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const fresh = await engine.fresh();
      store = fresh.store;
      cleanup = fresh.cleanup;
      await store.exec(
        'CREATE TABLE cache_t (project TEXT NOT NULL, name TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (project, name))',
      );
      await store.run("INSERT INTO cache_t VALUES ('p', 'a', 1), ('q', 'b', 2)");
      await store.exec('CREATE TABLE cache_u (name TEXT PRIMARY KEY)');
    });
    afterAll(async () => cleanup?.());

    /** Runs `work` in a transaction that is rolled back, so every case starts from the same rows. */
    const rolledBack = async (work: (tx: Queryable) => Promise<void>) => {
      await expect(
        store.transaction(async (tx) => {
          await work(tx);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
    };

    it('answers a repeated plain read from the first, with rows the caller may change', async () => {
      await rolledBack(async (raw) => {
        const { tx, sent } = counted(raw);
        const cached = withReadCache(tx);
        const first = await cached.all<{ name: string; size: number }>(SELECT, P);
        first[0]!.size = 99;
        first.push({ name: 'x', size: 0 });
        const again = await cached.all<{ name: string; size: number }>(SELECT, P);
        expect(again.map((r) => [r.name, Number(r.size)])).toEqual([['a', 1]]);
        expect(sent).toHaveLength(1);
        // Other parameters, or the same statement as arrays, are reads of their own.
        await cached.all(SELECT, ['q']);
        const rows = await cached.values<[string, number]>(SELECT, P);
        expect(rows.map(([n, s]) => [n, Number(s)])).toEqual([['a', 1]]);
        expect(sent).toHaveLength(3);
      });
    });

    it('reads again after a write, and sees it', async () => {
      await rolledBack(async (raw) => {
        const { tx, sent } = counted(raw);
        const cached = withReadCache(tx);
        await cached.all(SELECT, P);
        await cached.run("INSERT INTO cache_t VALUES ('p', 'c', 3)");
        const after = await cached.all<{ name: string }>(SELECT, P);
        expect(after.map((r) => r.name)).toEqual(['a', 'c']);
        await cached.exec("UPDATE cache_t SET size = 5 WHERE name = 'a'");
        const later = await cached.all<{ name: string; size: number }>(SELECT, P);
        expect(Number(later[0]!.size)).toBe(5);
        expect(sent.filter((s) => s === SELECT)).toHaveLength(3);
      });
    });

    it('reads again after writes run together, which still go together where they can', async () => {
      await rolledBack(async (raw) => {
        const { tx, sent } = counted(raw);
        const cached = withReadCache(tx);
        await cached.all(SELECT, P);
        await runTogether(cached, [
          { sql: 'INSERT INTO cache_t VALUES ($1, $2, $3)', params: ['p', 'e', 6] },
          { sql: 'INSERT INTO cache_u VALUES ($1)', params: ['e'] },
        ]);
        const after = await cached.all<{ name: string }>(SELECT, P);
        expect(after.map((r) => r.name)).toEqual(['a', 'e']);
        expect(sent.filter((s) => s === SELECT)).toHaveLength(2);
        expect(sent.filter((s) => s.startsWith('together') || s.startsWith('INSERT'))).toEqual(
          engine.name === 'postgres'
            ? ['together: 2']
            : ['INSERT INTO cache_t VALUES ($1, $2, $3)', 'INSERT INTO cache_u VALUES ($1)'],
        );
      });
    });

    it('does not keep a read that was answered after a write was sent', async () => {
      await rolledBack(async (raw) => {
        const { tx, sent } = counted(raw);
        const cached = withReadCache(tx);
        const reading = cached.all(SELECT, P);
        const writing = cached.run("INSERT INTO cache_t VALUES ('p', 'd', 4)");
        await Promise.all([reading, writing]);
        const after = await cached.all<{ name: string }>(SELECT, P);
        expect(after.map((r) => r.name)).toEqual(['a', 'd']);
        expect(sent.filter((s) => s === SELECT)).toHaveLength(2);
      });
    });

    it('passes a write disguised as a read, a locking read and a function call through, and forgets', async () => {
      await rolledBack(async (raw) => {
        const { tx, sent } = counted(raw);
        const cached = withReadCache(tx);
        await cached.all(SELECT, P);
        const changed = await cached.all<{ name: string }>(
          'UPDATE cache_t SET size = size + 1 WHERE project = $1 RETURNING name',
          P,
        );
        expect(changed.map((r) => r.name)).toEqual(['a']);
        const after = await cached.all<{ size: number }>(SELECT, P);
        expect(Number(after[0]!.size)).toBe(2);
        const count = 'SELECT count(*) AS n FROM cache_t WHERE project = $1';
        await cached.all(count, P);
        await cached.all(count, P);
        expect(sent.filter((s) => s === count)).toHaveLength(2);
        // A function in FROM may write (canonry's own chaining function does): never kept.
        const fromFunction =
          engine.name === 'postgres'
            ? 'SELECT n FROM generate_series(1, 2) AS n'
            : 'SELECT value FROM json_each($1)';
        const args = engine.name === 'postgres' ? [] : ['[1,2]'];
        await cached.all(fromFunction, args);
        await cached.all(fromFunction, args);
        expect(sent.filter((s) => s === fromFunction)).toHaveLength(2);
        // An IN list is a plain read.
        const listed = 'SELECT name FROM cache_t WHERE project = $1 AND name IN ($2, $3)';
        await cached.all(listed, ['p', 'a', 'b']);
        await cached.all(listed, ['p', 'a', 'b']);
        expect(sent.filter((s) => s === listed)).toHaveLength(1);
        if (engine.name === 'postgres') {
          const locking = `${SELECT.replace(' ORDER BY name', '')} FOR UPDATE`;
          await cached.all(locking, P);
          await cached.all(locking, P);
          expect(sent.filter((s) => s === locking)).toHaveLength(2);
        }
        // Each statement that is not a plain read forgot what was kept.
        await cached.all(SELECT, P);
        expect(sent.filter((s) => s === SELECT)).toHaveLength(3);
      });
    });
  });
}
