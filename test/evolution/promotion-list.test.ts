// The promotions list is a bounded page without artifacts: it answered every promotion the project
// ever proposed with its artifact (up to a body's size each), so it grew by up to a megabyte per
// promotion an editor started — 60 of them made a 54 MB answer, and a few hundred more than one
// answer can hold. A page holds at most 100, says where the next starts, and one promotion's read
// still carries its artifact. Over HTTP on loopback with a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'promo-list';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'editor' | 'viewer', string>;

const candidate = (id: string) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'adaptive', iap_budget: 384 },
  baseline: null,
  canary: { share: 0.1, projects: [] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 5 },
  replay_events: ['v1'],
  advance: false,
});

const api = (path: string, token = t.viewer) =>
  call(live.url, 'GET', `/v1/projects/${P}/evolution/promotions${path}`, token);

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { editor: 'editor', viewer: 'viewer' });
  for (const id of ['air-a', 'air-b', 'air-c']) {
    const res = await call(
      live.url,
      'POST',
      `/v1/projects/${P}/evolution/promotions`,
      t.editor,
      candidate(id),
    );
    expect(res.status).toBe(201);
  }
});
afterAll(() => live?.close());

type Row = { promotion: { promotion_id: string; candidate: Record<string, unknown> } };

describe('GET …/evolution/promotions', () => {
  it('answers a page in proposal order without artifacts, and where the next starts', async () => {
    const first = await api('?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.promotions.map((p: Row) => p.promotion.promotion_id)).toEqual([
      'air-a',
      'air-b',
    ]);
    for (const p of first.body.promotions as Row[]) {
      expect(p.promotion.candidate).not.toHaveProperty('artifact');
      expect(p.promotion.candidate.metric).toEqual({
        name: 'session_iq',
        margin: 0.02,
        min_samples: 5,
        // The evidence bounds the promotion is judged by, recorded with it when proposed.
        min_observations: 3,
        max_observation_samples: 5,
      });
    }
    expect(typeof first.body.next).toBe('number');
    const rest = await api(`?limit=2&after=${first.body.next}`);
    expect(rest.body.promotions.map((p: Row) => p.promotion.promotion_id)).toEqual(['air-c']);
    expect(rest.body.next).toBeNull();
    expect((await api('')).body.promotions).toHaveLength(3);

    const one = await api('/air-b');
    expect(one.body.promotion.candidate.artifact).toEqual({ mode: 'adaptive', iap_budget: 384 });
  });

  it('refuses a page larger than 100 or a bad cursor', async () => {
    for (const query of ['?limit=101', '?limit=0', '?after=-1', '?after=x']) {
      const refused = await api(query);
      expect([query, refused.status, refused.body.error.code]).toEqual([
        query,
        400,
        'INVALID_ARGUMENT',
      ]);
    }
  });
});
