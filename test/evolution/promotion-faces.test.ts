// Every step of a promotion driven from the HTTP face on a fresh data directory, as a user would,
// with nothing handed in by a library caller: a protocol registered and a verdict validated over
// HTTP, the coordinator's replayable kernel.verdict event found in the event store, a candidate
// started held at proposed (advance false), advanced (replay validation against that event, with
// the artifact the audit does not keep handed in the call, checks, publication, canary), observed,
// and decided. Then advance's refusals: unknown, finished, nothing to advance, another call at it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, promotionsOf } from '../../src/app/index.js';
import { PromotionRunner } from '../../src/evolution/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { baselineVerdict, servedEvolution, VERDICT_ARTIFACT } from '../helpers/evolution.js';

const P = 'faces';
const closers: (() => Promise<unknown> | unknown)[] = [];
let rt: CanonryRuntime;
let url: string;
let t: Record<'owner' | 'editor', string>;
let system: Record<'viewer', string>;
let protocol: Record<string, unknown>;
let baseline: string;
let verdictEvent: string;
/** The artifact the recorded verdict was decided on (the audit keeps its hash alone). */
const ARTIFACT = VERDICT_ARTIFACT;

const api = (method: string, path: string, token: string, body?: unknown) =>
  call(url, method, `/v1/projects/${P}${path}`, token, body);

beforeAll(async () => {
  ({ rt, url } = await servedEvolution(closers));
  t = await tokensFor(rt, P, { owner: 'owner', editor: 'editor' });
  system = await tokensFor(rt, 'evolution', { viewer: 'viewer' });
  ({ protocol, baseline, verdictEvent } = await baselineVerdict(url, P, t.editor, system.viewer));
});
afterAll(async () => {
  for (const close of closers) await close();
});

/** A protocol candidate that keeps every verdict of the baseline (a new version, same rules). */
const candidate = (id: string) => ({
  promotion_id: id,
  artifact_kind: 'agentic_protocol',
  artifact: { ...protocol, version: `${protocol.version}.1` },
  baseline,
  canary: { share: 0, projects: [P] },
  metric: { name: 'drift_free', margin: 0.05, min_samples: 3 },
  replay_events: [verdictEvent],
});

const held = async (id: string) => {
  const started = await api('POST', '/evolution/promotions', t.editor, {
    ...candidate(id),
    advance: false,
  });
  expect(started.status).toBe(201);
  expect(started.body.promotion.stage).toBe('candidate');
  return started;
};

describe('a promotion driven from the HTTP face alone', () => {
  it('held at proposed, advanced against the stored verdict event into its canary, observed and decided', async () => {
    await held('proto-1');
    const advanced = await api('POST', '/evolution/promotions/proto-1/advance', t.editor, {
      replay_artifacts: [ARTIFACT],
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body.promotion.reason ?? null).toBe(null);
    expect(advanced.body.promotion.stage).toBe('canary');
    expect(advanced.body.promotion.history.map((h: { stage: string }) => h.stage)).toEqual([
      'candidate',
      'validated',
      'checked',
      'published',
      'canary',
    ]);
    expect(advanced.body.promotion.history[1]).toMatchObject({ step: 'validate' });
    const post = (arm: string, value: number) =>
      api('POST', '/evolution/promotions/proto-1/observations', t.editor, {
        arm,
        value,
        samples: 1,
      });
    for (let i = 0; i < 3; i++) expect((await post('baseline', 1)).status).toBe(200);
    await post('canary', 1);
    await post('canary', 1);
    const decided = await post('canary', 1);
    expect(decided.body.promotion.stage).toBe('promoted');
  });

  it('without the artifact the stored verdict names, validation stops the candidate and says why', async () => {
    await held('proto-2');
    const advanced = await api('POST', '/evolution/promotions/proto-2/advance', t.editor);
    expect(advanced.status).toBe(200);
    expect(advanced.body.promotion).toMatchObject({
      stage: 'rejected',
      rejected_at: 'validation',
    });
    expect(advanced.body.promotion.reason).toMatch(/REPLAY_INPUT_MISSING/);
  });

  it('started whole, with the artifact in the body, it reaches its canary in one call', async () => {
    const started = await api('POST', '/evolution/promotions', t.editor, {
      ...candidate('proto-3'),
      replay_artifacts: [ARTIFACT],
    });
    expect(started.status).toBe(201);
    expect(started.body.promotion.stage).toBe('canary');
  });

  it('advance refuses, typed and journaling nothing: unknown, finished, already in its canary, a body out of shape', async () => {
    const head = async () => (await rt.journal.head(P))?.seq ?? 0;
    const before = await head();
    const unknown = await api('POST', '/evolution/promotions/nope/advance', t.editor);
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'UNKNOWN_PROMOTION']);
    const finished = await api('POST', '/evolution/promotions/proto-2/advance', t.editor);
    expect([finished.status, finished.body.error.code]).toEqual([409, 'PROMOTION_FINISHED']);
    expect(finished.body.error.details).toMatchObject({ stage: 'rejected' });
    const open = await api('POST', '/evolution/promotions/proto-3/advance', t.editor);
    expect([open.status, open.body.error.code]).toEqual([409, 'PROMOTION_ILLEGAL_TRANSITION']);
    const bad = await api('POST', '/evolution/promotions/proto-3/advance', t.editor, {
      replay_artifacts: 'x',
    });
    expect(bad.status).toBe(400);
    expect(await head()).toBe(before);
  });

  it('two calls advancing one promotion at once: one takes it to its canary, the other is CONFLICT', async () => {
    await held('proto-4');
    const runner = promotionsOf(rt);
    const editor = { actor: 'editor', role: 'editor' as const };
    // In one process, the second is refused while the first runs.
    const [a, b] = await Promise.allSettled([
      runner.advance(P, editor, 'proto-4', { artifacts: [ARTIFACT] }),
      runner.advance(P, editor, 'proto-4', { artifacts: [ARTIFACT] }),
    ]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { stage: 'canary' } });
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'CONFLICT' } });

    // In two processes (two runners on one journal): the one that planned on a stage another
    // moved past answers CONFLICT, and the promotion's steps are journaled once.
    await held('proto-5');
    let release!: () => void;
    let entered!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const replaying = new Promise<void>((r) => {
      entered = r;
    });
    const other = new PromotionRunner(rt.journal, {
      signer: () => rt.keyring.signer(),
      anchor: () => ({ root: rt.keyring.rootCertificatePem }),
      validator: async () => {
        entered();
        await gate;
        return { replayed: 1, failures: [] };
      },
    });
    const slow = other.advance(P, editor, 'proto-5');
    await replaying; // it has read the promotion at candidate and is replaying
    const fast = await runner.advance(P, editor, 'proto-5', { artifacts: [ARTIFACT] });
    release();
    expect(fast.stage).toBe('canary');
    await expect(slow).rejects.toMatchObject({ code: 'CONFLICT', details: { stage: 'canary' } });
    const state = await runner.get(P, 'proto-5');
    expect(state.history.map((h) => h.step)).toEqual([
      'propose',
      'validate',
      'check',
      'publish',
      'canary',
    ]);
  });
});
