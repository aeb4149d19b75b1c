// A receipt's affected dependents, on both engines: described dependents `{ id, kind, depth, state,
// cause }` travel into the receipt and back byte for byte; bare ids (entries written before) still
// do; anything else is refused with INVALID_ENTRY and nothing is appended.
import { afterEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { Journal } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { COUNTERS, count, createCounters } from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

const DEPENDENT = {
  id: 'decision.db',
  kind: 'note',
  depth: 2,
  state: 'needs_revision',
  cause: 'storage.engine moved v1 → v2 (through decision.a)',
};

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`receipt affected_dependents on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });
    const open = async () => {
      ({ store, cleanup } = await engine.fresh());
      await createCounters(store);
      return new Journal(store, { projections: [COUNTERS] });
    };

    it('described dependents and bare ids travel into the receipt, and read back the same', async () => {
      const journal = await open();
      const out = await journal.append('alpha', {
        ...count('x'),
        receipt: { affected_dependents: [DEPENDENT, 'art-1'] },
      });
      expect(out.receipt.affected_dependents).toEqual([DEPENDENT, 'art-1']);
      const again = await journal.receipt('alpha', out.entry.seq);
      expect(again).toEqual(out.receipt);
    });

    it('anything else is INVALID_ENTRY and appends nothing', async () => {
      const journal = await open();
      const bad: unknown[] = [
        [{ id: 'x' }],
        [{ ...DEPENDENT, depth: -1 }],
        [{ ...DEPENDENT, depth: 1.5 }],
        [{ ...DEPENDENT, extra: true }],
        [{ ...DEPENDENT, state: 3 }],
        [null],
        [['x']],
        'x',
      ];
      for (const affected of bad) {
        let code = 'OK';
        try {
          await journal.append('alpha', {
            ...count('x'),
            receipt: { affected_dependents: affected as never },
          });
        } catch (err) {
          code = err instanceof CanonryError ? err.code : `untyped: ${err}`;
        }
        expect(code, JSON.stringify(affected)).toBe('INVALID_ENTRY');
      }
      expect((await journal.head('alpha')).seq).toBe(0);
    });
  });
}
