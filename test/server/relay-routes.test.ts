// The state relay over HTTP (CRP-030), against a real server on loopback with a real SQLite file:
// an agent drives a session window by window with its own contributions; the completing response
// carries the §5.3/§6.4/§10 headers and no other response does; roles come from the tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawAnswer, startDeflateThread } from '../../src/relay/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'relay-http';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'agent' | 'val', string>;

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { agent: 'agent', val: 'viewer' });
});
afterAll(() => live?.close());

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  call(live.url, method, `/v1/projects/${P}${path}`, token, body);

const relayHeaders = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => name.startsWith('crp-relay-')));

const journalLength = async () => {
  const [row] = await live.runtime.store.all<{ n: number | string }>(
    'SELECT count(*) AS n FROM journal_entries WHERE project = $1',
    [P],
  );
  return Number(row!.n);
};

const fact = (fact_id: string, statement: string, extra: Record<string, unknown> = {}) => ({
  fact_id,
  statement,
  provenance: 'CONVERSATION',
  ...extra,
});

describe('relay sessions over HTTP', () => {
  let id = '';

  it('starts a session as an agent; a viewer reads it but cannot start one', async () => {
    const started = await api('POST', '/relay/sessions', t.agent, {
      mode: 'DOCUMENT',
      objective: 'A design note for the billing service',
      remaining: ['Context', 'Decision', 'Rollout', 'Consequences'],
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'active', windows: 0, cso: null });
    id = started.body.session.session_id;
    expect(id).toMatch(/^rs-[0-9a-f]{16}$/);
    expect(started.body.session.started_by).toBe('agent');
    expect(relayHeaders(started.headers)).toEqual({});

    const denied = await api('POST', '/relay/sessions', t.val, {
      mode: 'DOCUMENT',
      objective: 'x',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');

    const list = await api('GET', '/relay/sessions', t.val);
    expect(list.status).toBe(200);
    expect(list.body.sessions.map((s: any) => s.session.session_id)).toEqual([id]);
  });

  it('prepares the first window (no relay headers) and completes it with the headers', async () => {
    const prepared = await api('POST', `/relay/sessions/${id}/prepare`, t.agent, {});
    expect(prepared.status).toBe(200);
    expect(prepared.body).toMatchObject({ window_number: 1, kind: 'work' });
    expect(prepared.body.goal_state.remaining).toEqual([
      'Context',
      'Decision',
      'Rollout',
      'Consequences',
    ]);
    expect(prepared.body.messages.length).toBeGreaterThan(0);
    expect(relayHeaders(prepared.headers)).toEqual({});

    const done = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Context: the service has 40,000 daily users and runs in one region.',
      contribution: {
        facts: [
          fact('f_users', 'the service has 40,000 daily users'),
          fact('f_region', 'the service runs in one region'),
        ],
        decisions: [
          {
            decision_id: 'd_region',
            choice: 'stay in one region for now',
            rationale: 'the load of 40,000 daily users fits one region',
            depends_on: ['f_users', 'f_region'],
          },
        ],
        completed: ['Context'],
      },
      model: 'the-test',
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'relayed', window_number: 1, kind: 'work' });
    expect(relayHeaders(done.headers)).toEqual({
      'crp-relay-preservation': '1.00',
      'crp-relay-cso-facts': '2',
      'crp-relay-cso-decisions': '1',
      'crp-relay-dependency-depth': '1',
      'crp-relay-revisions': '0',
    });
    // The body carries the same headers, for the faces that have no HTTP headers.
    expect(done.body.headers['CRP-Relay-CSO-Facts']).toBe('2');

    const state = await api('GET', `/relay/sessions/${id}`, t.val);
    expect(state.status).toBe(200);
    expect(state.body.windows).toBe(1);
    expect(state.body.cso.established_facts.map((f: any) => f.fact_id).sort()).toEqual([
      'f_region',
      'f_users',
    ]);
    expect(relayHeaders(state.headers)).toEqual({});
  });

  it('refuses a viewer (403), an unknown session (404) and a malformed contribution (400), journaling nothing', async () => {
    const before = await journalLength();
    const viewer = await api('POST', `/relay/sessions/${id}/windows`, t.val, { output: 'x' });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.code).toBe('FORBIDDEN');
    expect(relayHeaders(viewer.headers)).toEqual({});

    const unknown = await api('POST', '/relay/sessions/rs-0000000000000000/windows', t.agent, {
      output: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('UNKNOWN_SESSION');
    expect((await api('GET', '/relay/sessions/rs-0000000000000000', t.val)).status).toBe(404);

    const malformed = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Decision.',
      contribution: { facts: [{ statement: 42 }] },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_BODY');
    const unknownField = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Decision.',
      contribution: { decisions: [{ choice: 'x', rationale: 'y', sneaky: true }] },
    });
    expect(unknownField.status).toBe(400);
    const noOutput = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      contribution: {},
    });
    expect(noOutput.status).toBe(400);
    expect(noOutput.body.error.details.field).toBe('output');
    // An output for a window that is not next (a retry whose first attempt got through, or one
    // written ahead) completes nothing.
    for (const window_number of [1, 3]) {
      const stale = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
        output: 'Decision.',
        window_number,
      });
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({
        code: 'CONFLICT',
        details: { windows: 1, window_number },
      });
    }
    const zero = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Decision.',
      window_number: 0,
    });
    expect(zero.status).toBe(400);
    expect(zero.body.error.code).toBe('INVALID_BODY');
    expect(await journalLength()).toBe(before);
    expect((await api('GET', `/relay/sessions/${id}`, t.val)).body.windows).toBe(1);
  });

  it('repairs a window that drops a prior fact, and says so in the header', async () => {
    const done = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Decision: keep one region.',
      window_number: 2,
      contribution: {
        facts: [fact('f_users', 'the service has 40,000 daily users')],
        completed: ['Decision'],
      },
    });
    expect(done.status).toBe(200);
    expect(done.headers.get('crp-relay-preservation')).toBe('0.50; repaired=1');
    expect(done.body.verification.repaired).toEqual(['f_region']);
    expect(done.body.cso.established_facts.map((f: any) => f.fact_id).sort()).toEqual([
      'f_region',
      'f_users',
    ]);
  });

  it('dispatches a revision window after a superseded premise, and names its target in the headers', async () => {
    const superseding = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Rollout: the service now runs in two regions.',
      contribution: {
        facts: [
          fact('f_users', 'the service has 40,000 daily users'),
          fact('f_regions', 'the service runs in two regions', { supersedes: ['f_region'] }),
        ],
        completed: ['Rollout'],
      },
    });
    expect(superseding.status).toBe(200);
    expect(superseding.headers.get('crp-relay-revisions')).toBe('0');

    const prepared = await api('POST', `/relay/sessions/${id}/prepare`, t.agent);
    expect(prepared.body).toMatchObject({ kind: 'revision', revision_target: 'd_region' });

    // A revision window that does not revise its target is refused, nothing journaled.
    const before = await journalLength();
    const unrevised = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Nothing to revise.',
      contribution: {},
    });
    expect(unrevised.status).toBe(422);
    expect(unrevised.body.error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(await journalLength()).toBe(before);

    const revised = await api('POST', `/relay/sessions/${id}/windows`, t.agent, {
      output: 'Serve both regions.',
      contribution: {
        facts: [
          fact('f_users', 'the service has 40,000 daily users'),
          fact('f_regions', 'the service runs in two regions'),
        ],
        decisions: [
          {
            decision_id: 'd_region_r1',
            choice: 'serve both regions active-active',
            rationale: 'the service runs in two regions now',
            depends_on: ['f_users', 'f_regions'],
            revises: 'd_region',
          },
        ],
      },
    });
    expect(revised.status).toBe(200);
    expect(revised.body.kind).toBe('revision');
    expect(revised.headers.get('crp-relay-revisions')).toBe('1');
    expect(revised.headers.get('crp-relay-revision-target')).toBe('d_region');
    expect(revised.body.revisions[0]).toMatchObject({
      target: 'd_region',
      revised_by: 'd_region_r1',
      new_fact: 'f_regions',
    });
  });

  it('lists the windows in pages and verifies the chain', async () => {
    const all = await api('GET', `/relay/sessions/${id}/windows`, t.val);
    expect(all.status).toBe(200);
    expect(all.body.windows.map((w: any) => [w.window_number, w.kind])).toEqual([
      [1, 'work'],
      [2, 'work'],
      [3, 'work'],
      [4, 'revision'],
    ]);
    const page = await api('GET', `/relay/sessions/${id}/windows?after=2&limit=1`, t.val);
    expect(page.body.windows.map((w: any) => w.window_number)).toEqual([3]);
    expect((await api('GET', `/relay/sessions/${id}/windows?limit=0`, t.val)).status).toBe(400);
    expect((await api('GET', `/relay/sessions/${id}/windows?colour=red`, t.val)).status).toBe(400);

    const verified = await api('GET', `/relay/sessions/${id}/verify`, t.val);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ session_id: id, ok: true, windows: 4, broken: null });
  });

  it("journals the prepared window's context packet hash and the raw answers a caller hands back", async () => {
    const started = await api('POST', '/relay/sessions', t.agent, {
      mode: 'DOCUMENT',
      objective: 'A replayable note',
      remaining: ['Context'],
    });
    const sid = started.body.session.session_id;
    const prepared = await api('POST', `/relay/sessions/${sid}/prepare`, t.agent, {});
    expect(prepared.body.context_packet_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const output = 'Context: the note is replayable.';
    const raw = JSON.stringify({ output, facts: [] });
    const bad = await api('POST', `/relay/sessions/${sid}/windows`, t.agent, {
      output,
      context_packet_hash: 'sha256:zz',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_BODY');
    const done = await api('POST', `/relay/sessions/${sid}/windows`, t.agent, {
      output,
      contribution: { completed: ['Context'] },
      context_packet_hash: prepared.body.context_packet_hash,
      answers: [raw],
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const entry = await live.runtime.relay.reader(P).entry(sid, 1);
    expect(entry!.context_packet_hash).toBe(prepared.body.context_packet_hash);
    // The raw answers are journaled, and only there: the projection's record leaves them out.
    expect('answers' in entry!).toBe(false);
    const [journaled] = await live.runtime.relay.journaledWindows(P, sid, 1);
    expect(journaled!.answers).toEqual([{ before: '{"output":', after: ',"facts":[]}' }]);
  });

  it('journals a long raw answer deflated on its own thread, and it reads back byte for byte', async () => {
    expect(await startDeflateThread()).toBe(true);
    const started = await api('POST', '/relay/sessions', t.agent, {
      mode: 'DOCUMENT',
      objective: 'A long answer',
      remaining: ['Context'],
    });
    const sid = started.body.session.session_id;
    const output = 'Context: the answer was long.';
    const notes = Array.from({ length: 900 }, (_, i) => `note ${i}: eu-${i % 7} — 漢字 ${i * 37}`);
    const raw = JSON.stringify({ output, notes });
    expect(raw.length).toBeGreaterThan(20_000);
    const done = await api('POST', `/relay/sessions/${sid}/windows`, t.agent, {
      output,
      contribution: { completed: ['Context'] },
      answers: [raw],
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const [journaled] = await live.runtime.relay.journaledWindows(P, sid, 1);
    const [answer] = journaled!.answers!;
    expect(answer).toMatchObject({ at: raw.indexOf(JSON.stringify(output)) });
    expect((answer as { deflated: string }).deflated.length).toBeLessThan(raw.length / 2);
    expect(rawAnswer(answer!, output)).toBe(raw);
  });

  it('documents the relay under its tag, with the headers on the completing operation', async () => {
    const doc = (await call(live.url, 'GET', '/openapi.json', null)).body;
    const complete = doc.paths['/v1/projects/{project}/relay/sessions/{session}/windows'].post;
    expect(complete.tags).toEqual(['relay']);
    expect(Object.keys(complete.responses['200'].headers)).toEqual(
      expect.arrayContaining(['CRP-Relay-Preservation', 'CRP-Relay-Revision-Target']),
    );
    expect(complete.responses['404'].description).toContain('UNKNOWN_SESSION');
    expect(complete.responses['409'].description).toContain('SESSION_CLOSED');
    const prepare = doc.paths['/v1/projects/{project}/relay/sessions/{session}/prepare'].post;
    expect(prepare.responses['200'].headers).toBeUndefined();
    expect(doc.tags.map((tag: any) => tag.name)).toContain('relay');
  });
});
