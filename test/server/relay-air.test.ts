// AIR in the relay over HTTP (CRP-018 §2, §5, §6): a window that distorts a fact the session
// established is measured by the DPE, quarantined by AIR, and the next window's prompt carries the
// prohibition; passive mode measures and reports but injects nothing; the policy comes from the
// CRP-Safety-Policy header (or the body), and a malformed directive is a 400 naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'relay-air';
let live: Awaited<ReturnType<typeof liveServer>>;
let agent: string;

beforeAll(async () => {
  live = await liveServer();
  ({ agent } = await tokensFor(live.runtime, P, { agent: 'agent' }));
});
afterAll(() => live?.close());

const api = (method: string, path: string, body?: unknown, policy?: string) =>
  call(live.url, method, `/v1/projects/${P}${path}`, agent, body, {
    ...(policy ? { headers: { 'crp-safety-policy': policy } } : {}),
  });

const FACT = 'the cluster runs etcd v3.5 on five nodes';

async function distortingSession(start: Record<string, unknown>, policy?: string) {
  const started = await api(
    'POST',
    '/relay/sessions',
    {
      mode: 'DOCUMENT',
      objective: 'An operations note for the etcd cluster',
      remaining: ['Topology', 'Upgrades', 'Backups'],
      ...start,
    },
    policy,
  );
  expect(started.status).toBe(201);
  const id = started.body.session.session_id as string;
  const w1 = await api('POST', `/relay/sessions/${id}/windows`, {
    output: 'The cluster runs etcd v3.5 on five nodes.',
    contribution: {
      facts: [{ fact_id: 'f_etcd', statement: FACT, provenance: 'USER' }],
      completed: ['Topology'],
    },
  });
  expect(w1.status).toBe(200);
  // Window 2 states the version wrong: a distortion of f_etcd.
  const w2 = await api('POST', `/relay/sessions/${id}/windows`, {
    output: 'Upgrades are rolled one node at a time. The cluster runs etcd v3.4 on five nodes.',
    contribution: { facts: [{ fact_id: 'f_etcd', statement: FACT }], completed: ['Upgrades'] },
  });
  expect(w2.status).toBe(200);
  return { id, started, w1, w2 };
}

const air = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => name.startsWith('crp-air-')));

describe('AIR in the relay over HTTP', () => {
  it('quarantines a distortion and the next window is told not to repeat it (adaptive, from the header)', async () => {
    const { id, started, w2 } = await distortingSession(
      {},
      'halt-on=CRITICAL; air-mode=adaptive; air-iap-budget=300',
    );
    expect(started.body.session.air).toEqual({ mode: 'adaptive', iap_budget: 300 });
    const distortion = w2.body.signals.contradictions.find(
      (c: { kind: string }) => c.kind === 'distortion',
    );
    expect(distortion).toMatchObject({ fact_id: 'f_etcd', contradiction: 'number' });
    expect(distortion.explanation).toContain('f_etcd');
    const headers = air(w2.headers);
    expect(headers['crp-air-active']).toBe('true');
    expect(headers['crp-air-error-quarantine-count']).toBe('1');
    const cost = Number(headers['crp-air-iap-token-cost']);
    expect(cost).toBeGreaterThan(0);
    expect(cost).toBeLessThanOrEqual(300);
    expect(Number(headers['crp-air-session-iq'])).toBeGreaterThanOrEqual(0);
    expect(w2.body.quality.packet.iap.error_quarantine[0].correction).toContain('v3.5');

    const next = await api('POST', `/relay/sessions/${id}/prepare`, {});
    expect(next.status).toBe(200);
    const prompt = next.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(prompt).toContain('Do NOT state or imply');
    expect(prompt).toContain('v3.4');
    expect(next.body.tokens.iap).toBeGreaterThan(0);
  });

  it('passive mode measures and reports but changes no prompt', async () => {
    const { id, w2 } = await distortingSession({ air_mode: 'passive' });
    expect(w2.body.signals.distortion_count).toBeGreaterThanOrEqual(1);
    expect(w2.body.quality.packet.iap.error_quarantine).toHaveLength(1);
    expect(air(w2.headers)['crp-air-active']).toBe('false');
    const next = await api('POST', `/relay/sessions/${id}/prepare`, {});
    const prompt = next.body.messages.map((m: { content: string }) => m.content).join('\n');
    expect(prompt).not.toContain('Do NOT state or imply');
    expect(next.body.tokens.iap).toBe(0);
    // The same window prepared under adaptive, from the header, does carry it.
    const adaptive = await api('POST', `/relay/sessions/${id}/prepare`, {}, 'air-mode=adaptive');
    expect(adaptive.body.tokens.iap).toBeGreaterThan(0);
  });

  it("holds the packet a window carries to that window's own air-iap-budget (§6.1)", async () => {
    const { id, w2 } = await distortingSession({});
    const built = Number(air(w2.headers)['crp-air-iap-token-cost']);
    expect(built).toBeGreaterThan(120);
    const full = await api('POST', `/relay/sessions/${id}/prepare`, {});
    expect(full.body.tokens.iap).toBe(built);
    for (const [budget, via] of [
      [120, 'header'],
      [60, 'body'],
      [0, 'header'],
    ] as const) {
      const next =
        via === 'header'
          ? await api('POST', `/relay/sessions/${id}/prepare`, {}, `air-iap-budget=${budget}`)
          : await api('POST', `/relay/sessions/${id}/prepare`, { air_iap_budget: budget });
      expect(next.status).toBe(200);
      expect(next.body.tokens.iap).toBeLessThanOrEqual(budget);
      const prompt = next.body.messages.map((m: { content: string }) => m.content).join('\n');
      // The quarantine is the last thing the budget gives up.
      if (next.body.tokens.iap > 0) expect(prompt).toContain('Do NOT state or imply');
    }
  });

  it('relays a window whose quoted fact would be cut inside an emoji (no half surrogate journaled)', async () => {
    const started = await api('POST', '/relay/sessions', {
      mode: 'DOCUMENT',
      objective: 'A note on the cache',
      remaining: ['Sizing', 'Eviction'],
    });
    const id = started.body.session.session_id as string;
    const head = 'The cache holds 32 GB in Redis for the billing service ';
    // The explanation quotes 159 code units of the fact: the emoji's first half is the last.
    const statement = `${head}${'x'.repeat(158 - head.length)}\u{1F600} and more words.`;
    const w1 = await api('POST', `/relay/sessions/${id}/windows`, {
      output: 'Sizing first.',
      contribution: { facts: [{ fact_id: 'f_cache', statement, provenance: 'USER' }] },
    });
    expect(w1.status).toBe(200);
    const w2 = await api('POST', `/relay/sessions/${id}/windows`, {
      output: 'The cache holds 48 GB in Redis for the billing service.',
    });
    expect(w2.status).toBe(200);
    expect(w2.body.status).toBe('relayed');
    expect(w2.body.signals.distortion_count).toBe(1);
  });

  it('refuses a malformed CRP-Safety-Policy with a 400 naming the directive, journaling nothing', async () => {
    const started = await api('POST', '/relay/sessions', {
      mode: 'DOCUMENT',
      objective: 'x',
      remaining: ['a'],
    });
    const id = started.body.session.session_id;
    const [before] = await live.runtime.store.all<{ n: number | string }>(
      'SELECT count(*) AS n FROM journal_entries WHERE project = $1',
      [P],
    );
    for (const policy of ['air-mode=turbo', 'air-iap-budget=-4', 'air-iap-budget=lots']) {
      const refused = await api(
        'POST',
        `/relay/sessions/${id}/windows`,
        { output: 'A line.' },
        policy,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('INVALID_POLICY');
      expect(JSON.stringify(refused.body.error)).toContain(policy.split('=')[0]);
    }
    const [after] = await live.runtime.store.all<{ n: number | string }>(
      'SELECT count(*) AS n FROM journal_entries WHERE project = $1',
      [P],
    );
    expect(Number(after!.n)).toBe(Number(before!.n));

    // The body's budget past the bound is the body's error, naming its field, not the header's.
    const tooLarge = await api('POST', '/relay/sessions', {
      mode: 'DOCUMENT',
      objective: 'x',
      remaining: ['a'],
      air_iap_budget: 16_385,
    });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error.code).toBe('INVALID_BODY');
    expect(JSON.stringify(tooLarge.body.error)).toContain('air_iap_budget');
    expect(tooLarge.body.error.message).not.toMatch(/CRP-Safety-Policy/i);
  });
});
