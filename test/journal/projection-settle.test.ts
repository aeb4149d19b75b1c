import { afterEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import {
  Journal,
  type Projection,
  rebuildProject,
  verifyProjections,
} from '../../src/journal/index.js';
import type { Queryable, Store } from '../../src/store/index.js';
import { count, createCounters, projectionRows } from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

/**
 * The counters projection written the way a settling projection writes: `apply` only adds to what
 * the transaction will write, `settle` writes it. Logs every call, with what settle wrote.
 */
function settlingCounters(log: string[]): Projection {
  const pending = new WeakMap<Queryable, Map<string, { by: number; seq: number }>>();
  return {
    name: 'test-counters',
    kinds: ['test.count'],
    tables: ['test_counters'],
    async apply(tx, entry) {
      const { name, by } = entry.body as { name: string; by: number };
      let sums = pending.get(tx);
      if (!sums) {
        sums = new Map();
        pending.set(tx, sums);
      }
      const key = `${entry.project}\u0000${name}`;
      sums.set(key, { by: (sums.get(key)?.by ?? 0) + by, seq: entry.seq });
      log.push(`apply ${entry.seq}`);
    },
    async settle(tx) {
      const sums = pending.get(tx);
      pending.delete(tx);
      const wrote: string[] = [];
      for (const [key, { by, seq }] of sums ?? []) {
        const [project, name] = key.split('\u0000') as [string, string];
        await tx.run(
          `INSERT INTO test_counters (project, name, value, last_seq) VALUES ($1, $2, $3, $4)
           ON CONFLICT (project, name) DO UPDATE SET value = test_counters.value + $3, last_seq = $4`,
          [project, name, by, seq],
        );
        wrote.push(`${name}+${by}`);
      }
      log.push(`settle ${wrote.join(' ')}`);
    },
  };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`settling projections on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });
    const open = async (log: string[]) => {
      ({ store, cleanup } = await engine.fresh());
      await createCounters(store);
      return new Journal(store, { projections: [settlingCounters(log)] });
    };

    it('an append settles once, after its entries and before it commits', async () => {
      const log: string[] = [];
      const journal = await open(log);
      await journal.appendAll('alpha', [count('a', 1), count('a', 2), count('b', 5)]);
      expect(log).toEqual(['apply 1', 'apply 2', 'apply 3', 'settle a+3 b+5']);
      expect(await projectionRows(store, 'alpha')).toEqual({
        counters: [
          { name: 'a', value: 3, last_seq: 2 },
          { name: 'b', value: 5, last_seq: 3 },
        ],
      });
      // An append refused in its transaction applies nothing, settles nothing, writes nothing.
      log.length = 0;
      await expect(
        journal.append('alpha', count('a', 100), {
          precondition: async () => {
            throw new CanonryError('CONFLICT', 'refused');
          },
        }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(log).toEqual([]);
      expect(await projectionRows(store, 'alpha')).toMatchObject({
        counters: [{ name: 'a', value: 3 }, { name: 'b' }],
      });
      await journal.close();
    });

    it("appends committed together: a later one's checks read what the earlier ones projected", async () => {
      const log: string[] = [];
      const journal = await open(log);
      await journal.append('alpha', count('a', 1));
      log.length = 0;
      let transactions = 0;
      const transaction = store.transaction.bind(store);
      store.transaction = (work, options) => {
        transactions++;
        return transaction(work, options);
      };
      let seen: unknown;
      // Issued in one turn: the commit queue runs them in one transaction.
      await Promise.all([
        journal.append('alpha', count('a', 2)),
        journal.append('alpha', count('b', 7), {
          precondition: async (tx) => {
            seen = await tx.all(
              "SELECT value FROM test_counters WHERE project = 'alpha' AND name = 'a'",
            );
          },
        }),
      ]);
      expect(transactions).toBe(1);
      expect(seen).toEqual([{ value: 3 }]);
      expect(log).toEqual(['apply 2', 'settle a+2', 'apply 3', 'settle b+7']);
      await journal.close();
    });

    it('a rebuild settles page by page and makes the same rows; nothing is left unsettled', async () => {
      const log: string[] = [];
      const journal = await open(log);
      // 600 entries: more than two pages of the rebuild's scan (256 rows a page).
      const inputs = Array.from({ length: 600 }, (_, i) => count(i % 3 === 0 ? 'a' : 'b', i));
      for (let i = 0; i < inputs.length; i += 200)
        await journal.appendAll('alpha', inputs.slice(i, i + 200));
      const live = await projectionRows(store, 'alpha');
      expect(live).toEqual({
        counters: [
          { name: 'a', value: 59_700, last_seq: 598 },
          { name: 'b', value: 120_000, last_seq: 600 },
        ],
      });
      log.length = 0;
      expect(await rebuildProject(journal, 'alpha')).toMatchObject({ entries: 600 });
      expect(log.filter((line) => line.startsWith('settle'))).toHaveLength(3);
      expect(log.at(-1)).toMatch(/^settle /);
      expect(await projectionRows(store, 'alpha')).toEqual(live);
      expect(await verifyProjections(journal, 'alpha')).toMatchObject({ mismatch: null });
      await journal.close();
    });
  });
}
