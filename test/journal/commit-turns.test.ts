// When the commit queue starts a transaction: at once when it has been idle, a turn later when it
// just committed, so that appends arriving in separate callbacks of one turn share a transaction.
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { COUNTERS, count, counterStores, projectionRows } from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`the commit queue's turns on ${engine.name}`, () => {
    const fresh = counterStores(engine);
    let store: Store;
    /** A journal whose appends run in transactions (a projection reads them), logging each start. */
    const open = async (log: string[]) => {
      store = await fresh();
      const transaction = store.transaction.bind(store);
      store.transaction = (work, options) => {
        log.push('transaction');
        return transaction(work, options);
      };
      return new Journal(store, { projections: [COUNTERS] });
    };

    it('starts an idle queue’s append before the next turn', async () => {
      const log: string[] = [];
      const journal = await open(log);
      await journal.append('alpha', count('a', 1));
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.length = 0;
      // A callback queued for the next turn before the append: the transaction comes first.
      setImmediate(() => log.push('next turn'));
      const appended = await journal.append('alpha', count('a', 2));
      expect(appended.entry.seq).toBe(2);
      // (On SQLite the whole append may be done before that turn comes.)
      await new Promise((resolve) => setImmediate(resolve));
      expect(log).toEqual(['transaction', 'next turn']);
    });

    it('lets appends from the callbacks of the turn after a commit share one transaction', async () => {
      const log: string[] = [];
      const journal = await open(log);
      await journal.append('alpha', count('a', 1));
      log.length = 0;
      // Six callbacks of one turn, as requests parsed in one poll phase, right after that commit.
      const appends = await new Promise<Promise<unknown>[]>((resolve) => {
        const started: Promise<unknown>[] = [];
        for (let i = 0; i < 6; i++) {
          setImmediate(() => {
            started.push(journal.append('alpha', count('b', 1)));
            if (started.length === 6) resolve(started);
          });
        }
      });
      await Promise.all(appends);
      // One transaction; two if this process was descheduled past the idle bound before the first
      // callback ran (it then starts at once, the other five wait for it). Started at once each, on
      // SQLite they would be six.
      expect(log.length).toBeGreaterThanOrEqual(1);
      expect(log.length).toBeLessThanOrEqual(2);
      expect(await projectionRows(store, 'alpha')).toEqual({
        counters: [
          { name: 'a', value: 1, last_seq: 1 },
          { name: 'b', value: 6, last_seq: 7 },
        ],
      });
    });
  });
}
