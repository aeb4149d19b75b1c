// A canary's history is bounded: each observation (one per collected relay window, up to a million
// samples a side) added an entry that every read of the promotion carried and that each later step
// copied, so folding a long canary was quadratic in its samples (40,000 observations: 7 s of the
// server's thread on the first read after a restart, and a 4 MB answer). The history keeps the
// latest observations and every other step; the arms still count every sample, so the decision is
// the same. Over a real journal (SQLite), rebuilt from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, promotionsOf } from '../../src/app/index.js';
import {
  applyStep,
  canaryDecision,
  MAX_OBSERVATION_HISTORY,
  PROMOTION_ENTRY,
  type PromotionCandidate,
  type PromotionState,
  type PromotionStep,
  publishCandidate,
} from '../../src/evolution/index.js';
import { freshRuntime } from '../helpers/runtime.js';

const PROJECT = 'promo-history';
const OBSERVATIONS = MAX_OBSERVATION_HISTORY + 40;

let runtime: CanonryRuntime;
let close: () => Promise<void>;

const candidate: PromotionCandidate = {
  promotion_id: 'air-long',
  artifact_kind: 'air_settings',
  artifact: { mode: 'adaptive', iap_budget: 384 },
  baseline: null,
  canary: { share: 0.1, projects: [] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 1_000_000 },
  replay_events: ['v1'],
};

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
  const append = (step: PromotionStep) =>
    runtime.journal.append(
      PROJECT,
      PROMOTION_ENTRY.input(
        { promotion_id: candidate.promotion_id, step },
        { actor: 'evolution:canary' },
      ),
    );
  // Into its canary as the runner takes it there, then observed one sample at a time, as the
  // canary collector posts them: the canary arm only, so the canary never decides.
  await append({ step: 'propose', candidate });
  await append({ step: 'validate', passed: true, replayed: 1, failures: [] });
  await append({ step: 'check', passed: true, reasons: [] });
  await append({
    step: 'publish',
    publication: publishCandidate(candidate, runtime.keyring.signer()),
  });
  await append({ step: 'canary' });
  for (let i = 0; i < OBSERVATIONS; i++) {
    await append({ step: 'observe', arm: 'canary', value: (i % 10) / 10, samples: 1 });
  }
});
afterAll(async () => {
  await close();
});

describe('a promotion history', () => {
  it('keeps the latest observations and every other step, and counts every sample', async () => {
    const state = (await promotionsOf(runtime).rebuild(PROJECT)).get(candidate.promotion_id)!;
    expect(state.stage).toBe('canary');
    expect(state.observed).toBe(OBSERVATIONS);
    expect(state.arms.canary.samples).toBe(OBSERVATIONS);
    const observations = state.history.filter((h) => h.step === 'observe');
    expect(observations).toHaveLength(MAX_OBSERVATION_HISTORY);
    expect(state.history.map((h) => h.step).filter((s) => s !== 'observe')).toEqual([
      'propose',
      'validate',
      'check',
      'publish',
      'canary',
    ]);
    // The latest, in journal order: the last entry is the last observation journaled.
    const seqs = observations.map((h) => h.seq!);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(seqs.at(-1)).toBe(5 + OBSERVATIONS);
    expect(seqs[0]).toBe(5 + OBSERVATIONS - MAX_OBSERVATION_HISTORY + 1);
  });

  it('decides as it did: the arms hold every sample the history no longer lists', () => {
    const next = (from: PromotionState | null, step: PromotionStep): PromotionState => {
      const made = applyStep(from, step);
      if (!made.ok) throw new Error(made.issues[0]!.message);
      return made.value;
    };
    let state: PromotionState = next(null, {
      step: 'propose',
      candidate: { ...candidate, metric: { ...candidate.metric, min_samples: 300 } },
    });
    for (const step of [
      { step: 'validate', passed: true, replayed: 1, failures: [] },
      { step: 'check', passed: true, reasons: [] },
    ] as PromotionStep[]) {
      state = next(state, step);
    }
    state = { ...state, stage: 'canary' };
    for (let i = 0; i < 300; i++) {
      state = next(state, { step: 'observe', arm: 'baseline', value: 0.9, samples: 1 });
    }
    for (let i = 0; i < 299; i++) {
      state = next(state, { step: 'observe', arm: 'canary', value: 0.5, samples: 1 });
    }
    expect(canaryDecision(state)).toBeNull();
    state = next(state, { step: 'observe', arm: 'canary', value: 0.5, samples: 1 });
    expect(state.history.filter((h) => h.step === 'observe')).toHaveLength(MAX_OBSERVATION_HISTORY);
    expect(canaryDecision(state)).toMatchObject({ step: 'roll_back', automatic: true });
  });
});
