// The promotion pipeline over HTTP, against a real server on loopback with a real SQLite file:
// an editor starts AIR-settings candidates and records canary observations, the canary decides on
// its own, only an owner promotes or rolls back by hand, every step of a gate policy's promotion is
// the owner's, a canary names only projects whose owner admitted this one, and refusals are typed
// 4xx with nothing journaled.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ReplayCase, useReplayCases } from '../../src/app/index.js';
import { DEFAULT_GATE_PROTOCOL } from '../../src/canon/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH, protocolHash } from '../../src/kernel/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer, readRepoJson } from '../helpers/runtime.js';
import { asset, draft, userPrivate } from './assets.js';

const P = 'promo-http';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'owner' | 'editor' | 'viewer', string>;
/** Tokens of the project the canaries name. */
let pilot: Record<'owner' | 'editor' | 'viewer', string>;
const cases = new Map<string, ReplayCase>();

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { owner: 'owner', editor: 'editor', viewer: 'viewer' });
  pilot = await tokensFor(live.runtime, 'pilot', {
    owner: 'owner',
    editor: 'editor',
    viewer: 'viewer',
  });
  // An event store stands in: one recorded, signed, replayable verdict (`v1`), nothing else.
  useReplayCases(live.runtime, (_project, id) => cases.get(id));
  const { protocol } = await live.runtime.kernel.registry.register(
    readRepoJson('examples/refund/protocol.json'),
  );
  const artifact = { amount: 20 };
  const evaluation = live.runtime.kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
  const made = assembleQualifiedEvent(
    draft({
      outcome: kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH),
      replay: { execution_class: KERNEL_VERDICT_CLASS },
    }),
    [asset('a:1', userPrivate('alice'))],
    { signer: live.runtime.keyring.signer() },
  );
  if (!made.ok) throw new Error(made.issues[0]!.message);
  cases.set('v1', { event: made.value, artifact });
});
afterAll(() => live?.close());

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  call(live.url, method, `/v1/projects/${P}${path}`, token, body);

const candidate = (id: string, changes: Record<string, unknown> = {}) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'aggressive', iap_budget: 256 },
  baseline: null,
  canary: { share: 0.1, projects: ['pilot'] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 5 },
  replay_events: ['v1'],
  ...changes,
});

const admissions = (method: string, token: string, from = P) =>
  call(
    live.url,
    method,
    `/v1/projects/pilot/evolution/admissions${method === 'GET' ? '' : `/${from}`}`,
    token,
  );

/** How many entries the project's journal holds. */
const head = async (project = P) =>
  (await live.runtime.journal.projects()).find((h) => h.project === project)?.seq ?? 0;

describe('promotions over HTTP', () => {
  it('a canary names only projects whose owner admitted this one; an editor of that project cannot admit', async () => {
    const before = await head();
    const unadmitted = await api('POST', '/evolution/promotions', t.editor, candidate('air-0'));
    expect(unadmitted.status).toBe(403);
    expect(unadmitted.body.error.code).toBe('FORBIDDEN');
    expect(unadmitted.body.error.message).toMatch(/names pilot, which does not admit promotions/);
    expect(await head()).toBe(before);

    // Tokens are per project: P's owner cannot admit into pilot, nor pilot's editor.
    expect((await admissions('PUT', t.owner)).status).toBe(403);
    const byEditor = await admissions('PUT', pilot.editor);
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('FORBIDDEN');
    expect(await head('pilot')).toBe(0);
    const admitted = await admissions('PUT', pilot.owner);
    expect(admitted.status).toBe(200);
    expect(admitted.body).toMatchObject({ from_project: P, admitted: true });
    // Admitting again changes nothing and journals nothing.
    expect((await admissions('PUT', pilot.owner)).body.seq).toBe(admitted.body.seq);
    expect(await head('pilot')).toBe(admitted.body.seq);
    expect((await admissions('GET', pilot.viewer)).body).toEqual({
      admissions: [{ from_project: P, admitted: true, seq: admitted.body.seq }],
    });
    expect((await admissions('PUT', pilot.owner, 'pilot')).body.error.code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await admissions('PUT', pilot.owner, 'Not_A_Project')).status).toBe(400);
    // The kernel's reserved projects make no promotions to admit; nothing is journaled for them.
    const pilotHead = await head('pilot');
    for (const from of ['kernel', 'registry']) {
      const refused = await admissions('PUT', pilot.owner, from);
      expect([from, refused.status, refused.body.error.code]).toEqual([
        from,
        400,
        'INVALID_ARGUMENT',
      ]);
    }
    expect(await head('pilot')).toBe(pilotHead);
  });

  it('an admission sent twice at once is journaled once; so is a withdrawal', async () => {
    const from = 'twice-home';
    /** `first`, with `second` sent and answered while `first` is about to journal its entry. */
    const racing = async (method: string) => {
      const journal = live.runtime.journal;
      const append = journal.append.bind(journal);
      let second: Awaited<ReturnType<typeof admissions>> | undefined;
      const spy = vi.spyOn(journal, 'append').mockImplementationOnce(async (...args) => {
        second = await admissions(method, pilot.owner, from);
        return append(...args);
      });
      try {
        const first = await admissions(method, pilot.owner, from);
        return [first, second!];
      } finally {
        spy.mockRestore();
      }
    };
    const before = await head('pilot');
    const admitted = await racing('PUT');
    expect(admitted.map((r) => r.status)).toEqual([200, 200]);
    expect(admitted[0]!.body).toEqual(admitted[1]!.body);
    expect(admitted[0]!.body).toMatchObject({ from_project: from, admitted: true });
    expect(await head('pilot')).toBe(before + 1);
    const withdrawn = await racing('DELETE');
    expect(withdrawn.map((r) => r.status)).toEqual([200, 200]);
    expect(withdrawn[0]!.body).toEqual(withdrawn[1]!.body);
    expect(withdrawn[0]!.body).toMatchObject({ from_project: from, admitted: false });
    expect(await head('pilot')).toBe(before + 2);
  });

  it('an editor starts a candidate; with no recorded event to replay it stops at validation', async () => {
    const res = await api(
      'POST',
      '/evolution/promotions',
      t.editor,
      candidate('air-1', { replay_events: ['e1'] }),
    );
    expect(res.status).toBe(201);
    expect(res.body.promotion).toMatchObject({
      stage: 'rejected',
      rejected_at: 'validation',
    });
    expect(res.body.promotion.reason).toMatch(/e1 not found/);
    const viewer = await api('POST', '/evolution/promotions', t.viewer, candidate('air-x'));
    expect(viewer.status).toBe(403);
  });

  it('a bad candidate is a typed 400 naming the field; an unknown promotion 404', async () => {
    const bad = await api('POST', '/evolution/promotions', t.editor, {
      ...candidate('air-2'),
      canary: { share: 2, projects: [] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PROMOTION');
    const missing = await api('GET', '/evolution/promotions/nope', t.viewer);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('UNKNOWN_PROMOTION');
  });

  it('the canary rolls back on its own when worse; a better one is promoted; only an owner acts by hand', async () => {
    const observe = (id: string, arm: string, value: number, token = t.editor) =>
      api('POST', `/evolution/promotions/${id}/observations`, token, { arm, value, samples: 5 });

    const worse = await api('POST', '/evolution/promotions', t.editor, candidate('air-3'));
    expect(worse.body.promotion.stage).toBe('canary');
    expect(worse.body.promotion.publication.address).toBe(worse.body.promotion.address);
    // No decision rests on one report: each arm needs three observations (the default).
    for (let i = 0; i < 3; i++) {
      expect((await observe('air-3', 'baseline', 0.8)).body.promotion.stage).toBe('canary');
    }
    for (let i = 0; i < 2; i++) {
      expect((await observe('air-3', 'canary', 0.6)).body.promotion.stage).toBe('canary');
    }
    const rolled = await observe('air-3', 'canary', 0.6);
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({
      promotion: { stage: 'rolled_back' },
      canary_mean: 0.6,
      baseline_mean: 0.8,
    });
    // Each observation stays in the history with its numbers: the canary over time.
    expect(
      rolled.body.promotion.history
        .filter((h: { step: string }) => h.step === 'observe')
        .map((h: { observation: unknown }) => h.observation),
    ).toEqual([
      ...Array(3).fill({ arm: 'baseline', value: 0.8, samples: 5 }),
      ...Array(3).fill({ arm: 'canary', value: 0.6, samples: 5 }),
    ]);
    expect((await observe('air-3', 'canary', 0.6)).body.error.code).toBe(
      'PROMOTION_ILLEGAL_TRANSITION',
    );

    await api('POST', '/evolution/promotions', t.editor, candidate('air-4'));
    for (let i = 0; i < 3; i++) await observe('air-4', 'baseline', 0.8);
    await observe('air-4', 'canary', 0.79);
    await observe('air-4', 'canary', 0.79);
    const promoted = await observe('air-4', 'canary', 0.79);
    expect(promoted.body.promotion.stage).toBe('promoted');

    const byEditor = await api('POST', '/evolution/promotions/air-4/rollback', t.editor, {
      reason: 'x',
    });
    expect(byEditor.status).toBe(403);
    const byOwner = await api('POST', '/evolution/promotions/air-4/rollback', t.owner, {
      reason: 'an incident',
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.promotion.history.map((h: { step: string }) => h.step).slice(-2)).toEqual([
      'promote',
      'roll_back',
    ]);

    const held = await api('POST', '/evolution/promotions', t.editor, {
      ...candidate('air-5'),
      advance: false,
    });
    expect(held.body.promotion.stage).toBe('candidate');
    const early = await api('POST', '/evolution/promotions/air-5/promote', t.owner, {
      reason: 'skip',
    });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('PROMOTION_ILLEGAL_TRANSITION');

    const listed = await api('GET', '/evolution/promotions', t.viewer);
    expect(
      listed.body.promotions.map((p: { promotion: { promotion_id: string; stage: string } }) => [
        p.promotion.promotion_id,
        p.promotion.stage,
      ]),
    ).toEqual([
      ['air-1', 'rejected'],
      ['air-3', 'rolled_back'],
      ['air-4', 'rolled_back'],
      ['air-5', 'candidate'],
    ]);
  });

  it("every step of a gate policy's promotion is the owner's: an editor is refused at start and at observe, nothing journaled", async () => {
    const gate = (id: string) =>
      candidate(id, {
        artifact_kind: 'gate_policy',
        artifact: { ...DEFAULT_GATE_PROTOCOL, version: '9.1' },
        canary: { share: 0, projects: ['pilot'] },
        metric: { name: 'upheld', margin: 0.05, min_samples: 5 },
      });
    let before = await head();
    const byEditor = await api('POST', '/evolution/promotions', t.editor, gate('gate-1'));
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error.code).toBe('FORBIDDEN');
    expect(byEditor.body.error.message).toMatch(/gate policy .* the project owner's/);
    const held = await api('POST', '/evolution/promotions', t.editor, {
      ...gate('gate-1'),
      advance: false,
    });
    expect(held.status).toBe(403);
    expect(await head()).toBe(before);
    expect((await api('GET', '/evolution/promotions/gate-1', t.viewer)).status).toBe(404);

    const byOwner = await api('POST', '/evolution/promotions', t.owner, gate('gate-1'));
    expect(byOwner.status).toBe(201);
    expect(byOwner.body.promotion.stage).toBe('canary');

    before = await head();
    const observe = (token: string) =>
      api('POST', '/evolution/promotions/gate-1/observations', token, {
        arm: 'canary',
        value: 0.9,
        samples: 5,
      });
    const editorObserves = await observe(t.editor);
    expect(editorObserves.status).toBe(403);
    expect(editorObserves.body.error.code).toBe('FORBIDDEN');
    expect(await head()).toBe(before);
    const ownerObserves = await observe(t.owner);
    expect(ownerObserves.status).toBe(200);
    expect(ownerObserves.body.promotion.arms.canary).toEqual({
      samples: 5,
      sum: 4.5,
      observations: 1,
    });
    expect(await head()).toBe(before + 1);

    // AIR settings stay an editor's: the same editor still runs an AIR promotion to its canary.
    const air = await api('POST', '/evolution/promotions', t.editor, candidate('air-6'));
    expect(air.status).toBe(201);
    expect(air.body.promotion.stage).toBe('canary');
    const airObserved = await api('POST', '/evolution/promotions/air-6/observations', t.editor, {
      arm: 'baseline',
      value: 0.5,
      samples: 1,
    });
    expect(airObserved.status).toBe(200);

    // Withdrawn, the pilot no longer admits P: a new canary naming it is refused again.
    expect((await admissions('DELETE', pilot.editor)).status).toBe(403);
    const withdrawn = await admissions('DELETE', pilot.owner);
    expect(withdrawn.body).toMatchObject({ from_project: P, admitted: false });
    expect((await api('POST', '/evolution/promotions', t.editor, candidate('air-7'))).status).toBe(
      403,
    );
  });
  it('an agentic protocol in force by slug: the canary names the project, promoted it reaches the rest; a share is refused', async () => {
    const refund = readRepoJson('examples/refund/protocol.json') as Record<string, unknown>;
    const slug = refund.slug as string;
    const baseline = protocolHash(refund as never);
    // A new version: the same decisions, so replay validation keeps the recorded verdict.
    const next = { ...refund, version: '9.0.0' };
    const nextHash = protocolHash(next as never);
    const validate = (project: string, token: string, ref: unknown) =>
      call(live.url, 'POST', `/v1/projects/${project}/validate`, token, {
        artifact: { amount: 20 },
        agentic_protocol: ref,
        generation_metadata_hash: EMPTY_METADATA_HASH,
      });
    const inForce = async (project: string, token: string) => {
      const res = await validate(project, token, `in-force:${slug}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ conformant: true, label: expect.any(String) });
      return res.body.attestation.protocol.hash as string;
    };
    expect((await admissions('PUT', pilot.owner)).status).toBeLessThan(300);

    // Nothing promoted yet: no version of the slug is in force anywhere.
    const none = await validate('pilot', pilot.viewer, `in-force:${slug}`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('UNKNOWN_PROTOCOL');

    const started = await api('POST', '/evolution/promotions', t.editor, {
      ...candidate('proto-1'),
      artifact_kind: 'agentic_protocol',
      artifact: next,
      baseline,
      canary: { share: 0, projects: ['pilot'] },
      metric: { name: 'conformance', margin: 0.05, min_samples: 5 },
    });
    expect(started.body.promotion.stage).toBe('canary');
    // The canary's project validates under the candidate; the promoting project under the baseline.
    expect(await inForce('pilot', pilot.viewer)).toBe(nextHash);
    expect(await inForce(P, t.viewer)).toBe(baseline);
    // A hash still names exactly that protocol, whatever is in force.
    const byHash = await validate('pilot', pilot.viewer, baseline);
    expect(byHash.body.attestation.protocol.hash).toBe(baseline);
    // Another slug, and the public route (no project, so nothing is in force for it).
    const other = await validate('pilot', pilot.viewer, 'in-force:no-such-protocol');
    expect([other.status, other.body.error.code]).toEqual([404, 'UNKNOWN_PROTOCOL']);
    const open = await call(live.url, 'POST', '/v1/validate', null, {
      artifact: { amount: 20 },
      agentic_protocol: `in-force:${slug}`,
      generation_metadata_hash: EMPTY_METADATA_HASH,
    });
    expect(open.status).toBe(400);

    const promoted = await api('POST', '/evolution/promotions/proto-1/promote', t.owner, {
      reason: 'the pilot agreed',
    });
    expect(promoted.body.promotion.stage).toBe('promoted');
    expect(await inForce(P, t.viewer)).toBe(nextHash);
    expect(await inForce('pilot', pilot.viewer)).toBe(nextHash);
    await api('POST', '/evolution/promotions/proto-1/rollback', t.owner, { reason: 'undo' });
    expect((await validate(P, t.viewer, `in-force:${slug}`)).status).toBe(404);

    const shared = await api('POST', '/evolution/promotions', t.editor, {
      ...candidate('proto-share'),
      artifact_kind: 'agentic_protocol',
      artifact: next,
      baseline,
      canary: { share: 0.1, projects: [] },
      metric: { name: 'conformance', margin: 0.05, min_samples: 5 },
    });
    expect(shared.body.promotion).toMatchObject({ stage: 'rejected', rejected_at: 'policy' });
    expect(shared.body.promotion.reason).toMatch(/a protocol canary names its projects/);
  });
});
