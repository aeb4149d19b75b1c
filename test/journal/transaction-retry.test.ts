import { afterEach, describe, expect, it } from 'vitest';
import { Journal, verifyProject } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { COUNTERS, count, createCounters, projectionRows } from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

/**
 * A store whose first transaction is rolled back after its work ran and then run again, as the
 * PostgreSQL store retries one that hit a deadlock or a serialisation failure (the store's
 * contract: "transient conflicts … are retried").
 */
function retryingOnce(inner: Store): Store & { readonly retried: number } {
  let retried = 0;
  return {
    capabilities: inner.capabilities,
    description: inner.description,
    ...(inner.background ? { background: inner.background } : {}),
    ...(inner.notifications ? { notifications: inner.notifications } : {}),
    get retried() {
      return retried;
    },
    all: (sql, params) => inner.all(sql, params),
    values: (sql, params) => inner.values(sql, params),
    run: (sql, params) => inner.run(sql, params),
    exec: (sql) => inner.exec(sql),
    close: () => inner.close(),
    async transaction(work, options) {
      if (retried === 0) {
        retried++;
        const conflict = new Error('deadlock detected (emulated)');
        await inner
          .transaction(async (tx) => {
            await work(tx);
            throw conflict;
          }, options)
          .catch((err: unknown) => {
            if (err !== conflict) throw err;
          });
      }
      return inner.transaction(work, options);
    },
  };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a retried transaction on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it('group-committed appends run again from nothing: each once, heads locked again, chains whole', async () => {
      ({ store, cleanup } = await engine.fresh());
      await createCounters(store);
      const setup = new Journal(store, { projections: [COUNTERS] });
      await setup.append('alpha', count('a', 1));
      await setup.append('beta', count('a', 1));
      await setup.close();
      const retrying = retryingOnce(store);
      const journal = new Journal(retrying, { projections: [COUNTERS] });
      // Issued in one turn: one transaction for both projects, whose first attempt is undone.
      const [alpha, beta] = await Promise.all([
        journal.appendAll('alpha', [count('a', 2), count('b', 5)], { expectedSeq: 1 }),
        journal.appendAll('beta', [count('a', 3)], { expectedSeq: 1 }),
      ]);
      expect(retrying.retried).toBe(1);
      expect(alpha.map((r) => r.entry.seq)).toEqual([2, 3]);
      expect(beta.map((r) => r.entry.seq)).toEqual([2]);
      expect(await journal.head('alpha')).toMatchObject({ seq: 3, hash: alpha[1]!.entry.hash });
      expect(await projectionRows(store, 'alpha')).toEqual({
        counters: [
          { name: 'a', value: 3, last_seq: 2 },
          { name: 'b', value: 5, last_seq: 3 },
        ],
      });
      for (const project of ['alpha', 'beta']) {
        expect(await verifyProject(journal, project)).toMatchObject({ ok: true });
      }
      await journal.close();
    });
  });
}
