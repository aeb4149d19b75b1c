// listEvents over HTTP: journal order by default, newest first on request, a page ending before a
// seq, and typed refusals of bad paging input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { servedEvolution } from '../helpers/evolution.js';

const PROJECT = 'evo-http';
let url: string;
let token: string;
let rt: CanonryRuntime;
const closers: (() => Promise<unknown> | unknown)[] = [];

const list = async (query: string) =>
  call(url, 'GET', `/v1/projects/${PROJECT}/evolution/events${query}`, token);

beforeAll(async () => {
  ({ rt, url } = await servedEvolution(closers));
  const t = await tokensFor(rt, PROJECT, { ada: 'agent' });
  token = t.ada;
  for (let i = 0; i < 4; i++) {
    const res = await call(url, 'POST', `/v1/projects/${PROJECT}/evolution/feedback`, token, {
      subject: `work-${i}`,
      score: 0.5,
    });
    expect(res.status).toBe(201);
  }
  await rt.evolution!.idle();
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('GET …/evolution/events', () => {
  it('lists in journal order by default and newest first on request, paged by before', async () => {
    const oldest = await list('');
    expect(oldest.status).toBe(200);
    const seqs = (oldest.body.events as { seq: number }[]).map((e) => e.seq);
    expect(seqs).toHaveLength(4);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

    const newest = await list('?order=newest&limit=2');
    expect((newest.body.events as { seq: number }[]).map((e) => e.seq)).toEqual([seqs[3], seqs[2]]);
    const older = await list(`?order=newest&limit=2&before=${seqs[2]}`);
    expect((older.body.events as { seq: number }[]).map((e) => e.seq)).toEqual([seqs[1], seqs[0]]);
    const none = await list(`?order=newest&before=${seqs[0]}`);
    expect(none.body.events).toEqual([]);
  });

  it('makes no event of a personal note’s commit, which only its holder may read (LCSM §14)', async () => {
    const t = await tokensFor(rt, PROJECT, { eve: 'editor', vic: 'viewer' });
    const before = (await list('?limit=1000')).body.events as { event_id: string }[];
    const propose = (object_id: string, visibility: string) =>
      call(url, 'POST', `/v1/projects/${PROJECT}/proposals`, t.eve, {
        object_id,
        intent: 'create',
        base_version: null,
        candidate: {
          object_type: 'preference',
          title: 't',
          text: `${visibility} text`,
          visibility,
        },
      });
    const personal = await propose('secret.plan', 'personal');
    expect(personal.status, JSON.stringify(personal.body)).toBeLessThan(300);
    const shared = await propose('open.plan', 'project');
    expect(shared.status, JSON.stringify(shared.body)).toBeLessThan(300);
    await rt.evolution!.idle();
    const listed = (await list('?limit=1000')).body.events as { event_id: string }[];
    const made: unknown[] = [];
    for (const { event_id } of listed.slice(before.length)) {
      const got = await call(
        url,
        'GET',
        `/v1/projects/${PROJECT}/evolution/events/${event_id}`,
        t.vic,
      );
      made.push(got.body.event.outcome.object_id);
    }
    // The project note's commit is an event; the personal one's is not, to anyone.
    expect(made).toEqual(['open.plan']);
    const asViewer = await call(
      url,
      'GET',
      `/v1/projects/${PROJECT}/evolution/events?limit=1000`,
      t.vic,
    );
    expect(JSON.stringify(asViewer.body)).not.toContain('secret.plan');
  });

  it('refuses a bad order or before with a typed 400', async () => {
    const order = await list('?order=sideways');
    expect(order.status).toBe(400);
    expect(order.body.error.code).toBe('INVALID_ARGUMENT');
    const before = await list('?before=-3');
    expect(before.status).toBe(400);
    expect(before.body.error.code).toBe('INVALID_ARGUMENT');
    // The documented minimums (limit and before 1) hold: 0 is refused, not read as 1 or as none.
    for (const query of ['?limit=0', '?before=0', '?limit=1001']) {
      const res = await list(query);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, 'INVALID_ARGUMENT']);
    }
    const dead = await call(
      url,
      'GET',
      `/v1/projects/${PROJECT}/evolution/dead-letters?limit=0`,
      token,
    );
    expect(dead.status).toBe(400);
  });
});
