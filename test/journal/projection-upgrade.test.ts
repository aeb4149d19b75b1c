import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type Projection, upgradeProjections } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { COUNTERS, count, createCounters, projectionRows } from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

/** The counters projection as a later version writes it: every count doubled. */
const DOUBLED: Projection = {
  ...COUNTERS,
  version: 2,
  async apply(tx, entry) {
    const { name, by } = entry.body as { name: string; by: number };
    await COUNTERS.apply(tx, { ...entry, body: { name, by: by * 2 } });
  },
};

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`projection versions on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });
    const open = async () => {
      ({ store, cleanup } = await engine.fresh());
      await createCounters(store);
      const old = new Journal(store, { projections: [COUNTERS] });
      for (const project of ['alpha', 'beta']) {
        await old.append(project, count('a', 1));
        await old.append(project, count('a', 2));
        await old.append(project, count('b', 5));
      }
      await old.close();
    };

    it('rebuilds every project once when the projection changed, then records the version', async () => {
      await open();
      expect(await projectionRows(store, 'alpha')).toEqual({
        counters: [
          { name: 'a', value: 3, last_seq: 2 },
          { name: 'b', value: 5, last_seq: 3 },
        ],
      });
      const journal = new Journal(store, { projections: [DOUBLED] });
      const first = await upgradeProjections(journal);
      expect(first).toEqual({
        changed: [{ name: 'test-counters', from: null, to: 2 }],
        rebuilt: 2,
        failed: [],
      });
      for (const project of ['alpha', 'beta']) {
        expect(await projectionRows(store, project)).toEqual({
          counters: [
            { name: 'a', value: 6, last_seq: 2 },
            { name: 'b', value: 10, last_seq: 3 },
          ],
        });
      }
      // Appends after the upgrade go through the same projection; a second open rebuilds nothing.
      await journal.append('alpha', count('a', 1));
      expect(await upgradeProjections(journal)).toEqual({ changed: [], rebuilt: 0, failed: [] });
      expect((await projectionRows(store, 'alpha')) as unknown).toMatchObject({
        counters: [{ name: 'a', value: 8, last_seq: 4 }, { name: 'b' }],
      });
      await journal.close();
    });

    it('leaves a quarantined project as it was and records nothing, so the next open tries again', async () => {
      await open();
      const journal = new Journal(store, { projections: [DOUBLED] });
      journal.quarantine({ project: 'beta', seq: 2, reason: 'body-changed', detail: 'test' });
      const upgrade = await upgradeProjections(journal);
      expect(upgrade.rebuilt).toBe(1);
      expect(upgrade.failed).toEqual([
        { project: 'beta', reason: 'chain does not verify at 2 (body-changed)' },
      ]);
      expect(await projectionRows(store, 'beta')).toMatchObject({
        counters: [
          { name: 'a', value: 3 },
          { name: 'b', value: 5 },
        ],
      });
      expect(await store.all('SELECT * FROM journal_projection_versions')).toEqual([]);
      await journal.close();
      const again = new Journal(store, { projections: [DOUBLED] });
      expect(await upgradeProjections(again)).toMatchObject({ rebuilt: 2, failed: [] });
      expect(await projectionRows(store, 'beta')).toMatchObject({
        counters: [
          { name: 'a', value: 6 },
          { name: 'b', value: 10 },
        ],
      });
      await again.close();
    });
  });
}
