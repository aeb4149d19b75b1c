// A canary names projects by their names, each once. A name no project can have was answered 403
// FORBIDDEN "does not admit promotions", sending the editor to ask an owner who cannot exist; a
// project named twice was journaled as given, a set written two ways. Both are now the candidate's
// own mistake, 400 INVALID_PROMOTION naming the entry, with nothing journaled. Over HTTP on loopback
// with a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'promo-names';
let live: Awaited<ReturnType<typeof liveServer>>;
let editor: string;

beforeAll(async () => {
  live = await liveServer();
  ({ editor } = await tokensFor(live.runtime, P, { editor: 'editor' }));
});
afterAll(() => live?.close());

const candidate = (id: string, projects: string[]) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'adaptive', iap_budget: 384 },
  baseline: null,
  canary: { share: 0.1, projects },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 5 },
  replay_events: ['v1'],
  advance: false,
});

const head = async () =>
  (await live.runtime.journal.projects()).find((h) => h.project === P)?.seq ?? 0;

describe('the projects a canary names', () => {
  it('are project names, each once: anything else is INVALID_PROMOTION, nothing journaled', async () => {
    const cases: [string, string[], string][] = [
      ['not-a-name', ['Pilot:Team'], '/canary/projects/0'],
      ['too-long', [P, 'x'.repeat(65)], '/canary/projects/1'],
      ['twice', [P, P], '/canary/projects/1'],
    ];
    for (const [id, projects, path] of cases) {
      const before = await head();
      const res = await call(live.url, 'POST', `/v1/projects/${P}/evolution/promotions`, editor, {
        ...candidate(id, projects),
      });
      expect([id, res.status, res.body.error?.code, res.body.error?.details?.path]).toEqual([
        id,
        400,
        'INVALID_PROMOTION',
        path,
      ]);
      expect(await head()).toBe(before);
    }
    const own = await call(live.url, 'POST', `/v1/projects/${P}/evolution/promotions`, editor, {
      ...candidate('own', [P]),
    });
    expect(own.status).toBe(201);
    expect(own.body.promotion.candidate.canary.projects).toEqual([P]);
  });
});
