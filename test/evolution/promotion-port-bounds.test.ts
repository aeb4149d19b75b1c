// What the runner's ports report is bounded before it is journaled, against a real SQLite journal:
// a replay validator's long failure reasons (a deep first difference's path) and a check's reasons
// cut inside a surrogate pair reject the candidate with a well-formed, bounded record — they do not
// fail the append and leave the caller with a malformed-entry error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { PROMOTION_ENTRY, PromotionRunner } from '../../src/evolution/index.js';
import { freshRuntime } from '../helpers/runtime.js';

const P = 'bounds';
const EDITOR = { actor: 'editor-1', role: 'editor' } as const;
let runtime: CanonryRuntime;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
});
afterAll(() => close());

const candidate = (id: string) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'aggressive', iap_budget: 256 },
  baseline: null,
  canary: { share: 0, projects: [P] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 3 },
  replay_events: ['v1'],
});

/**
 * A text of `n` units which, after a prefix of `lead` units, has the first half of a surrogate pair
 * as its 2,000th unit: cut at 2,000, a lone half would be left.
 */
const long = (n: number, lead = 0) => `${'p'.repeat(1_999 - lead)}😀${'y'.repeat(n - 2_001)}`;

async function journaled(id: string, step: string) {
  const entries = await runtime.journal.read(P, { limit: 1000 });
  return entries
    .filter((e) => PROMOTION_ENTRY.is(e) && PROMOTION_ENTRY.body(e).promotion_id === id)
    .map((e) => PROMOTION_ENTRY.body(e).step)
    .find((s) => s.step === step) as unknown;
}

describe('the runner bounds what its ports report', () => {
  it('a validator reporting 300 failures with 5,000-character reasons rejects the candidate', async () => {
    const runner = new PromotionRunner(runtime.journal, {
      signer: () => runtime.keyring.signer(),
      anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
      validator: async () => ({
        replayed: 300,
        failures: Array.from({ length: 300 }, (_, i) => ({
          event_id: `e${i}`,
          reason: `differs at ${long(5_000, 'differs at '.length)}`,
        })),
      }),
    });
    const state = await runner.start(P, EDITOR, candidate('long-validation'));
    expect(state).toMatchObject({ stage: 'rejected', rejected_at: 'validation' });
    const step = (await journaled('long-validation', 'validate')) as {
      failures: { reason: string }[];
    };
    expect(step.failures).toHaveLength(256);
    for (const f of step.failures) {
      expect(f.reason.length).toBeLessThanOrEqual(2_000);
      expect(f.reason.isWellFormed()).toBe(true);
    }
  });

  it('a check whose reason is cut inside a surrogate pair journals it well-formed', async () => {
    const runner = new PromotionRunner(runtime.journal, {
      signer: () => runtime.keyring.signer(),
      anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
      validator: async () => ({ replayed: 1, failures: [] }),
      checks: [() => [long(2_500)]],
    });
    const state = await runner.start(P, EDITOR, candidate('long-check'));
    expect(state).toMatchObject({ stage: 'rejected', rejected_at: 'policy' });
    const step = (await journaled('long-check', 'check')) as { reasons: string[] };
    expect(step.reasons[0]!.length).toBeLessThanOrEqual(2_000);
    expect(step.reasons[0]!.isWellFormed()).toBe(true);
  });
});
