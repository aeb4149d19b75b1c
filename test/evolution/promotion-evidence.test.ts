// What a canary's decision rests on, against a real SQLite journal: several observations per arm,
// none claiming more than the promotion's bound, the bounds recorded with the promotion when it is
// proposed (so a later read judges it the same way), and a promotion journaled before the bounds
// existed still judged as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { PROMOTION_ENTRY, PromotionRunner, publishCandidate } from '../../src/evolution/index.js';
import { freshRuntime } from '../helpers/runtime.js';

const PROJECT = 'evidence';
const EDITOR = { actor: 'editor-1', role: 'editor' } as const;

let runtime: CanonryRuntime;
let close: () => Promise<void>;
let runner: PromotionRunner;

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
  runner = new PromotionRunner(runtime.journal, {
    signer: () => runtime.keyring.signer(),
    anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
    validator: async () => ({ replayed: 1, failures: [] }),
  });
});
afterAll(() => close());

const candidate = (id: string, metric: Record<string, unknown> = {}) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'aggressive', iap_budget: 256 },
  baseline: null,
  canary: { share: 0, projects: [PROJECT] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 10, ...metric },
  replay_events: ['v1'],
});

async function opened(id: string, metric: Record<string, unknown> = {}) {
  await runner.propose(PROJECT, EDITOR, candidate(id, metric));
  return runner.advance(PROJECT, EDITOR, id);
}

const head = async () => (await runtime.journal.head(PROJECT))?.seq ?? 0;

describe('the evidence a canary decides on', () => {
  it('one report claiming a million samples decides nothing: it is refused, nothing journaled', async () => {
    expect((await opened('one-report')).stage).toBe('canary');
    const before = await head();
    for (const arm of ['baseline', 'canary'] as const) {
      await expect(
        runner.observe(PROJECT, EDITOR, 'one-report', { arm, value: 0.9, samples: 1_000_000 }),
      ).rejects.toMatchObject({
        code: 'INVALID_PROMOTION',
        details: { path: '/samples', step: 'observe' },
      });
    }
    expect(await head()).toBe(before);
    expect((await runner.get(PROJECT, 'one-report')).stage).toBe('canary');
  });

  it('an arm holding its minimum sample in fewer than three observations is not decided yet', async () => {
    await opened('few');
    await runner.observe(PROJECT, EDITOR, 'few', { arm: 'baseline', value: 0.9, samples: 10 });
    const one = await runner.observe(PROJECT, EDITOR, 'few', {
      arm: 'canary',
      value: 0.1,
      samples: 10,
    });
    // Both arms hold min_samples, each in one report: the canary waits for more.
    expect(one.stage).toBe('canary');
    expect(one.arms.canary).toEqual({ samples: 10, sum: 1, observations: 1 });
    for (let i = 0; i < 2; i++) {
      await runner.observe(PROJECT, EDITOR, 'few', { arm: 'baseline', value: 0.9, samples: 1 });
    }
    await runner.observe(PROJECT, EDITOR, 'few', { arm: 'canary', value: 0.1, samples: 1 });
    expect((await runner.get(PROJECT, 'few')).stage).toBe('canary');
    const third = await runner.observe(PROJECT, EDITOR, 'few', {
      arm: 'canary',
      value: 0.1,
      samples: 1,
    });
    expect(third.stage).toBe('rolled_back');
  });

  it('the bounds are journaled with the proposal; a candidate may tighten them, never loosen', async () => {
    await opened('recorded', { min_observations: 5, max_observation_samples: 2 });
    const proposal = (await runtime.journal.read(PROJECT, { limit: 1000 })).find(
      (e) =>
        PROMOTION_ENTRY.is(e) &&
        PROMOTION_ENTRY.body(e).promotion_id === 'recorded' &&
        PROMOTION_ENTRY.body(e).step.step === 'propose',
    )!;
    expect(PROMOTION_ENTRY.body(proposal).step).toMatchObject({
      candidate: { metric: { min_observations: 5, max_observation_samples: 2 } },
    });
    await opened('defaults');
    expect((await runner.get(PROJECT, 'defaults')).candidate.metric).toEqual({
      name: 'session_iq',
      margin: 0.02,
      min_samples: 10,
      min_observations: 3,
      max_observation_samples: 10,
    });
    const before = await head();
    for (const [metric, path] of [
      [{ min_observations: 1 }, '/metric/min_observations'],
      [{ max_observation_samples: 0 }, '/metric/max_observation_samples'],
      [{ max_observation_samples: 2_000_000 }, '/metric/max_observation_samples'],
    ] as const) {
      await expect(
        runner.propose(PROJECT, EDITOR, candidate('loose', metric)),
      ).rejects.toMatchObject({ code: 'INVALID_PROMOTION', details: { path } });
    }
    expect(await head()).toBe(before);
  });

  it('a promotion journaled before the bounds is judged as it was: one observation a side', async () => {
    // As an older build journaled it: the candidate's metric carries no evidence bounds.
    const legacy = { ...candidate('legacy'), artifact_kind: 'air_settings' as const };
    const append = (step: unknown) =>
      runtime.journal.append(
        PROJECT,
        PROMOTION_ENTRY.input({ promotion_id: 'legacy', step: step as never }, { actor: 'old' }),
      );
    await append({ step: 'propose', candidate: legacy });
    await append({ step: 'validate', passed: true, replayed: 1, failures: [] });
    await append({ step: 'check', passed: true, reasons: [] });
    await append({
      step: 'publish',
      publication: publishCandidate(legacy, runtime.keyring.signer()),
    });
    await append({ step: 'canary' });
    const fresh = new PromotionRunner(runtime.journal, {
      signer: () => runtime.keyring.signer(),
      anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
      validator: async () => ({ replayed: 1, failures: [] }),
    });
    await fresh.observe(PROJECT, EDITOR, 'legacy', { arm: 'baseline', value: 0.9, samples: 50 });
    const done = await fresh.observe(PROJECT, EDITOR, 'legacy', {
      arm: 'canary',
      value: 0.1,
      samples: 50,
    });
    expect(done.stage).toBe('rolled_back');
  });
});
