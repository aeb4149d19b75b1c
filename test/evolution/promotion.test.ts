import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CanonryRuntime,
  promotionsOf,
  type ReplayCase,
  useReplayCases,
} from '../../src/app/index.js';
import { contentHash, type JsonObject } from '../../src/core/index.js';
import {
  applyStep,
  assembleQualifiedEvent,
  CANARY_ACTOR,
  inCanary,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
  PROMOTION_ENTRY,
  PromotionRunner,
  type PromotionStep,
  publishCandidate,
  signQualifiedEvent,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH, protocolHash } from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
import { freshRuntime, readRepoJson, tempDir } from '../helpers/runtime.js';
import { asset, draft, userPrivate } from './assets.js';

const PROJECT = 'promo';
const OWNER = {
  actor: 'owner-1',
  authority: { principal: 'owner-1', role: 'owner', project: PROJECT },
  role: 'owner',
} as const;

let runtime: CanonryRuntime;
let close: () => Promise<void>;
const cases = new Map<string, ReplayCase>();
const refund = readRepoJson('examples/refund/protocol.json') as JsonObject;
let baseline: string;

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
  useReplayCases(runtime, (_project, id) => cases.get(id));
  const { protocol } = await runtime.kernel.registry.register(refund);
  baseline = protocol.hash;
  // The record: three verdicts of the refund guard, each a signed, replayable event.
  for (const [i, amount] of [20, 500, 5000].entries()) {
    const artifact = { amount };
    const evaluation = runtime.kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
    const made = assembleQualifiedEvent(
      draft({
        event_id: `00000000-0000-4000-8000-00000000000${i}`,
        outcome: kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH),
        replay: { execution_class: KERNEL_VERDICT_CLASS },
      }),
      [asset('a:1', userPrivate('alice'))],
      { signer: runtime.keyring.signer() },
    );
    if (!made.ok) throw new Error(made.issues[0]!.message);
    cases.set(`v${i}`, { event: made.value, artifact });
  }
});
afterAll(async () => {
  await close();
});

/** The refund guard with one more rule before the catch-all: it changes no recorded verdict. */
const candidateProtocol = () => ({
  ...refund,
  version: '1.1',
  rules: [
    ...(refund.rules as JsonObject[]).slice(0, 2),
    { label: 'BLOCK', condition: { '>': [{ var: 'amount' }, 100000] } },
    ...(refund.rules as JsonObject[]).slice(2),
  ],
});

let n = 0;
function candidate(changes: Record<string, unknown> = {}) {
  n += 1;
  return {
    promotion_id: `promo-${n}`,
    artifact_kind: 'agentic_protocol',
    artifact: candidateProtocol(),
    baseline,
    // A protocol is in force for a project's validations: its canary names projects (no share).
    canary: { share: 0, projects: [PROJECT] },
    metric: { name: 'verification_rate', margin: 0.05, min_samples: 10 },
    replay_events: ['v0', 'v1', 'v2'],
    ...changes,
  };
}

async function promotionEntries(id: string) {
  const entries = await runtime.journal.read(PROJECT, { limit: 1000 });
  return entries.filter(
    (e) => PROMOTION_ENTRY.is(e) && (e.body as { promotion_id: string }).promotion_id === id,
  );
}

describe('the promotion pipeline', () => {
  it('a canary with a worse metric rolls back on its own, appended after everything it undoes', async () => {
    const runner = promotionsOf(runtime);
    const c = candidate();
    await runner.propose(PROJECT, OWNER, c);
    const opened = await runner.advance(PROJECT, OWNER, c.promotion_id);
    expect(opened.stage).toBe('canary');
    expect(opened.history.map((h) => h.stage)).toEqual([
      'candidate',
      'validated',
      'checked',
      'published',
      'canary',
    ]);
    expect(opened.publication?.address).toBe(contentHash(c.artifact));
    for (let i = 0; i < 3; i++) {
      await runner.observe(PROJECT, OWNER, c.promotion_id, {
        arm: 'baseline',
        value: 0.9,
        samples: 4,
      });
    }
    for (let i = 0; i < 2; i++) {
      const early = await runner.observe(PROJECT, OWNER, c.promotion_id, {
        arm: 'canary',
        value: 0.7,
        samples: 5,
      });
      expect(early.stage).toBe('canary'); // below the minimum sample and observations: nothing yet
    }
    const done = await runner.observe(PROJECT, OWNER, c.promotion_id, {
      arm: 'canary',
      value: 0.7,
      samples: 5,
    });
    expect(done.stage).toBe('rolled_back');
    expect(done.reason).toMatch(/below the baseline/);
    const entries = await promotionEntries(c.promotion_id);
    const steps = entries.map((e) => (e.body as { step: PromotionStep }).step.step);
    expect(steps).toEqual([
      'propose',
      'validate',
      'check',
      'publish',
      'canary',
      ...Array(6).fill('observe'),
      'roll_back',
    ]);
    expect(entries.at(-1)!.actor).toBe(CANARY_ACTOR);
    expect(PROMOTION_ENTRY.summary(entries.at(-1)!)).toEqual({
      promotion_id: c.promotion_id,
      step: 'roll_back',
      automatic: true,
    });
    // Rolled back is final: no promotion after it.
    await expect(runner.promote(PROJECT, OWNER, c.promotion_id, 'anyway')).rejects.toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      details: { stage: 'rolled_back', step: 'promote' },
    });
  });

  it('a canary that holds against the baseline is promoted on its own; a manual rollback appends', async () => {
    const runner = promotionsOf(runtime);
    const c = candidate();
    await runner.propose(PROJECT, OWNER, c);
    await runner.advance(PROJECT, OWNER, c.promotion_id);
    const post = (arm: 'canary' | 'baseline', value: number) =>
      runner.observe(PROJECT, OWNER, c.promotion_id, { arm, value, samples: 4 });
    for (let i = 0; i < 3; i++) await post('baseline', 0.8);
    await post('canary', 0.85);
    await post('canary', 0.85);
    const done = await post('canary', 0.85);
    expect(done.stage).toBe('promoted');
    const back = await runner.rollBack(PROJECT, OWNER, c.promotion_id, 'an incident');
    expect(back.stage).toBe('rolled_back');
    expect(back.history.map((h) => h.step).slice(-2)).toEqual(['promote', 'roll_back']);
  });

  it('a replay failure stops the candidate at validation', async () => {
    const runner = promotionsOf(runtime);
    // A doctored record: event v1's recorded label changed and signed again.
    const { event, artifact } = cases.get('v1')!;
    const { signature: _s, signing_identity: _i, signing_certificate: _c, ...claims } = event;
    const forged = signQualifiedEvent(
      { ...claims, outcome: { ...event.outcome, label: 'AUTO_APPROVE' } },
      runtime.keyring.signer(),
    );
    cases.set('forged', { event: forged, artifact: artifact! });
    const c = candidate({ replay_events: ['v0', 'forged'] });
    await runner.propose(PROJECT, OWNER, c);
    const state = await runner.advance(PROJECT, OWNER, c.promotion_id);
    expect(state.stage).toBe('rejected');
    expect(state.rejected_at).toBe('validation');
    expect(state.reason).toContain('differs at /label');
    await expect(runner.check(PROJECT, OWNER, c.promotion_id)).rejects.toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
    });

    // A candidate that would change a recorded verdict is stopped too.
    const stricter = {
      ...refund,
      version: '2.0',
      rules: [
        { label: 'BLOCK', condition: { '>': [{ var: 'amount' }, 10] } },
        ...(refund.rules as JsonObject[]),
      ],
    };
    const d = candidate({ artifact: stricter });
    await runner.propose(PROJECT, OWNER, d);
    const stopped = await runner.advance(PROJECT, OWNER, d.promotion_id);
    expect(stopped.rejected_at).toBe('validation');
    expect(stopped.reason).toMatch(/the candidate answers CONFORMANT BLOCK/);

    // Naming no event, or one not in the record, is no validation.
    const e = candidate({ replay_events: ['missing'] });
    await runner.propose(PROJECT, OWNER, e);
    expect((await runner.advance(PROJECT, OWNER, e.promotion_id)).reason).toMatch(
      /missing not found/,
    );
  });

  it('policy and safety checks stop what they refuse', async () => {
    const runner = promotionsOf(runtime);
    const wide = candidate({ canary: { share: 0.9, projects: [] } });
    await runner.propose(PROJECT, OWNER, wide);
    const a = await runner.advance(PROJECT, OWNER, wide.promotion_id);
    expect(a).toMatchObject({ stage: 'rejected', rejected_at: 'policy' });
    expect(a.reason).toMatch(/over 0.5/);
    const gate = candidate({
      artifact_kind: 'gate_policy',
      artifact: {
        slug: 'gate',
        version: '9',
        constraints: { type: 'object' },
        labels: ['AUTO_COMMIT'],
        rules: [{ label: 'AUTO_COMMIT', condition: true }],
      },
      baseline: null,
    });
    await runner.propose(PROJECT, OWNER, gate);
    const g = await runner.advance(PROJECT, OWNER, gate.promotion_id);
    expect(g).toMatchObject({ stage: 'rejected', rejected_at: 'policy' });
    expect(g.reason).toMatch(/a way to stop/);
  });

  it('an unsigned, tampered or foreign publication is refused and nothing is journaled', async () => {
    const runner = promotionsOf(runtime);
    const c = candidate();
    await runner.propose(PROJECT, OWNER, c);
    await runner.validate(PROJECT, OWNER, c.promotion_id);
    const checked = await runner.check(PROJECT, OWNER, c.promotion_id);
    expect(checked.stage).toBe('checked');
    const before = (await promotionEntries(c.promotion_id)).length;
    const signed = publishCandidate(checked.candidate, runtime.keyring.signer());
    const { issuer: _i, signature: _s, ...unsigned } = signed;
    const tampered = { ...signed, address: contentHash({ other: true }) };
    const { dir, cleanup } = tempDir();
    try {
      const foreign = publishCandidate(checked.candidate, (await Keyring.init(dir)).signer());
      for (const bad of [unsigned, tampered, foreign, 'not a document']) {
        await expect(runner.publish(PROJECT, OWNER, c.promotion_id, bad)).rejects.toMatchObject({
          code: 'PUBLICATION_INVALID',
        });
      }
    } finally {
      cleanup();
    }
    expect(await promotionEntries(c.promotion_id)).toHaveLength(before);
    expect((await runner.get(PROJECT, c.promotion_id)).stage).toBe('checked');
    expect((await runner.publish(PROJECT, OWNER, c.promotion_id, signed)).stage).toBe('published');
  });

  it('illegal steps and bad input are typed refusals', async () => {
    const runner = promotionsOf(runtime);
    const c = candidate();
    await runner.propose(PROJECT, OWNER, c);
    await expect(runner.propose(PROJECT, OWNER, c)).rejects.toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
    });
    await expect(runner.promote(PROJECT, OWNER, c.promotion_id, 'skip')).rejects.toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      details: { stage: 'candidate', step: 'promote' },
    });
    await expect(
      runner.observe(PROJECT, OWNER, c.promotion_id, { arm: 'canary', value: 0.5, samples: 1 }),
    ).rejects.toMatchObject({ code: 'PROMOTION_ILLEGAL_TRANSITION' });
    await expect(
      runner.observe(PROJECT, OWNER, c.promotion_id, { arm: 'canary', value: 2, samples: 1 }),
    ).rejects.toMatchObject({ code: 'INVALID_PROMOTION', details: { path: '/value' } });
    await expect(
      runner.propose(PROJECT, OWNER, { ...candidate(), artifact_kind: 'model' }),
    ).rejects.toMatchObject({
      code: 'INVALID_PROMOTION',
      details: { path: '/artifact_kind' },
    });
    await expect(runner.get(PROJECT, 'nope')).rejects.toMatchObject({ code: 'UNKNOWN_PROMOTION' });
  });

  it('two runners on one journal (two processes) decide each step on the head they read: one decision, once', async () => {
    const a = promotionsOf(runtime);
    const b = new PromotionRunner(runtime.journal, {
      signer: () => runtime.keyring.signer(),
      anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
      validator: async () => ({ replayed: 0, failures: [] }),
    });
    const c = candidate();
    await a.propose(PROJECT, OWNER, c);
    await a.advance(PROJECT, OWNER, c.promotion_id);
    for (let i = 0; i < 2; i++) {
      await a.observe(PROJECT, OWNER, c.promotion_id, { arm: 'baseline', value: 0.9, samples: 5 });
      await b.observe(PROJECT, OWNER, c.promotion_id, { arm: 'canary', value: 0.5, samples: 5 });
    }
    const [x, y] = await Promise.all([
      a.observe(PROJECT, OWNER, c.promotion_id, { arm: 'baseline', value: 0.9, samples: 5 }),
      b.observe(PROJECT, OWNER, c.promotion_id, { arm: 'canary', value: 0.5, samples: 5 }),
    ]);
    expect([x.stage, y.stage].sort()).toEqual(['canary', 'rolled_back']);
    const steps = (await promotionEntries(c.promotion_id)).map(
      (e) => (e.body as { step: PromotionStep }).step.step,
    );
    expect(steps.filter((s) => s === 'observe')).toHaveLength(6);
    expect(steps.filter((s) => s === 'roll_back')).toHaveLength(1);
    expect((await b.get(PROJECT, c.promotion_id)).stage).toBe('rolled_back');
  });

  it('rebuilt from the journal alone, every promotion is at the stage it was left in', async () => {
    const live = await promotionsOf(runtime).list(PROJECT);
    expect(live.length).toBeGreaterThan(5);
    const fresh = new PromotionRunner(runtime.journal, {
      signer: () => runtime.keyring.signer(),
      anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
      validator: async () => ({ replayed: 0, failures: [] }),
    });
    const rebuilt = await fresh.rebuild(PROJECT);
    expect([...rebuilt.values()]).toEqual(live);
    expect(new Set(live.map((s) => s.stage))).toEqual(
      new Set(['rolled_back', 'rejected', 'published', 'candidate']),
    );
  });
});

describe('canary assignment and the machine', () => {
  it('assigns a share of sessions by hash, the same way every time; named projects wholly', () => {
    const scope = { share: 0.25, projects: ['pilot'] };
    const ids = Array.from({ length: 2000 }, (_, i) => `session-${i}`);
    const inside = ids.filter((id) => inCanary(scope, 'p1', { project: 'x', session_id: id }));
    expect(inside.length / ids.length).toBeGreaterThan(0.22);
    expect(inside.length / ids.length).toBeLessThan(0.28);
    expect(ids.filter((id) => inCanary(scope, 'p1', { project: 'x', session_id: id }))).toEqual(
      inside,
    );
    expect(ids.every((id) => inCanary(scope, 'p1', { project: 'pilot', session_id: id }))).toBe(
      true,
    );
    const other = ids.filter((id) => inCanary(scope, 'p2', { project: 'x', session_id: id }));
    expect(other).not.toEqual(inside);
  });

  it('refuses a step from a stage it may not leave, and a publication of another artifact', () => {
    expect(applyStep(null, { step: 'canary' })).toMatchObject({
      ok: false,
      issues: [{ code: 'PROMOTION_ILLEGAL_TRANSITION', stage: null, step: 'canary' }],
    });
    expect(protocolHash(refund as never)).toBe(baseline);
  });
});
