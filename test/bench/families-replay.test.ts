import { describe, expect, it } from 'vitest';
import { replayFamilies } from '../../bench/canon/lib/families/check.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

// The deepest cascade of each way the fact moves, and both sides of each governance family.
const IDS = [
  'cascade-d5-1-update',
  'cascade-d5-2-restore',
  'cascade-d5-3-supersede',
  'cascade-d4-3-dispute',
  'hedged-maybe-1',
  'hedged-question-1',
  'hedged-firm-1',
  'tool-own-fact-1',
  'tool-user-decision-1',
  'tool-user-fact-1',
  'approval-blind-1',
  'approval-acknowledged-1',
];

const ENGINES = [
  { name: 'sqlite', available: true, db: async () => ({ url: undefined, drop: async () => {} }) },
  { name: 'postgres', available: postgresAvailable, db: freshPostgresSchema },
];

describe.each(ENGINES)('bench/canon families through canonry on $name', (engine) => {
  it.skipIf(!engine.available)(
    "canonry's answers match each scenario's own truth",
    async () => {
      const { url, drop } = await engine.db();
      try {
        const results = await replayFamilies(IDS, url);
        expect(results.map((r) => r.id).sort()).toEqual([...IDS].sort());
        for (const { id, family, truth, canonry, errors } of results) {
          expect(errors, id).toEqual([]);
          if (family === 'cascade') {
            expect(canonry.found, id).toBe(canonry.should);
            expect(canonry.should, id).toBe(truth.needs_revision.length);
            expect(canonry.falseFlags, id).toEqual([]);
            expect(canonry.receiptExact, id).toBe(true);
            expect(canonry.capsuleWarned, id).toBe(canonry.capsuleShould);
            expect(canonry.capsuleFalse, id).toEqual([]);
            expect(canonry.depthRight, id).toBe(canonry.should);
          } else if (family === 'hedged') {
            expect(canonry.fired, id).toBe(truth.hedged);
            if (truth.hedged)
              expect(canonry.decided, id).toBe(truth.decided ? 'decided' : 'not decided');
          } else if (family === 'tool') {
            expect(canonry.routed, id).toBe(truth.routed);
            expect(canonry.value, id).toBe(truth.current);
          } else if (family === 'approval') {
            expect(canonry.stale, id).toBe(true);
            expect(canonry.retryCommitted, id).toBe(false);
            expect(canonry.ack, id).toBe(truth.acknowledged ? 'committed' : null);
            expect(canonry.value, id).toBe(truth.current);
          }
        }
      } finally {
        await drop();
      }
    },
    120_000,
  );
});
