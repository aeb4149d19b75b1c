// The promotion pipeline over HTTP, against a real server on loopback with a real SQLite file:
// an editor starts AIR-settings candidates and records canary observations, the canary decides on
// its own, only an owner promotes or rolls back by hand, and refusals are typed 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayCase, useReplayCases } from '../../src/app/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer, readRepoJson } from '../helpers/runtime.js';
import { asset, draft, userPrivate } from './assets.js';

const P = 'promo-http';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'owner' | 'editor' | 'viewer', string>;
const cases = new Map<string, ReplayCase>();

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { owner: 'owner', editor: 'editor', viewer: 'viewer' });
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

describe('promotions over HTTP', () => {
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
    expect((await observe('air-3', 'baseline', 0.8)).body.promotion.stage).toBe('canary');
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
      { arm: 'baseline', value: 0.8, samples: 5 },
      { arm: 'canary', value: 0.6, samples: 5 },
    ]);
    expect((await observe('air-3', 'canary', 0.6)).body.error.code).toBe(
      'PROMOTION_ILLEGAL_TRANSITION',
    );

    await api('POST', '/evolution/promotions', t.editor, candidate('air-4'));
    await observe('air-4', 'baseline', 0.8);
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
});
