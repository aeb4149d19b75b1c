// GET /v1/projects/:project/events against a real server on loopback with a real SQLite file: the
// journal as server-sent events (id = seq, event = kind), resumed after Last-Event-ID or ?after= with
// nothing lost or repeated, live as entries commit; the project's token and nothing else; summaries
// that name ids and outcomes but never bodies, gate events, token secrets or hashes; another
// principal's personal entries redacted; heartbeats that keep an idle stream past the socket
// timeouts; and a server that closes with streams open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { sha256Hex } from '../../src/core/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, STORY_SUBJECTS, tokensFor } from '../helpers/auth.js';
import { acceptNotes } from '../helpers/journal.js';
import { liveServer, tempDir } from '../helpers/runtime.js';
import { openEvents, type SseEvent } from '../helpers/sse.js';

const P = 'story';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'alice' | 'eddie' | 'val', string>;
let elsewhere: string;
let auditor: string;

beforeAll(async () => {
  live = await liveServer({ [P]: STORY_SUBJECTS });
  t = await tokensFor(live.runtime, P, { alice: 'owner', eddie: 'editor', val: 'viewer' });
  elsewhere = (await tokensFor(live.runtime, 'elsewhere', { olga: 'owner' })).olga;
  auditor = (await tokensFor(live.runtime, 'kernel', { auditor: 'viewer' })).auditor;
});
afterAll(() => live?.close());

const api = (method: string, path: string, token: string, body?: unknown) =>
  call(live.url, method, `/v1/projects/${P}${path}`, token, body);
const events = (token: string | null, query = '', headers: Record<string, string> = {}) =>
  openEvents(`${live.url}/v1/projects/${P}/events${query}`, token, headers);
const say = async (text: string, token = t.alice) => {
  const r = await api('POST', '/messages', token, { text });
  expect(r.status).toBe(201);
  return r;
};
const head = async () => (await live.runtime.journal.head(P)).seq;
const ids = (list: readonly SseEvent[]) => list.map((e) => Number(e.id));
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('GET /v1/projects/:project/events', () => {
  it('streams the journal from the start, then live as entries commit', async () => {
    await say('I would like a red interface for the app.');
    const n = await head();
    const stream = await events(t.val);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const backlog = await stream.take(n);
    expect(ids(backlog)).toEqual(range(1, n));
    // The same entries the journal route shows this viewer: the classifier's own entries are their
    // author's (LCSM §14), redacted to their place in the chain.
    const { entries } = (await api('GET', `/journal?limit=${n}`, t.val)).body;
    expect(backlog.map((e) => e.event)).toEqual(
      entries.map((e: { kind?: string; redacted?: true }) => (e.redacted ? 'redacted' : e.kind)),
    );
    expect(backlog.map((e) => e.event)).toContain('canon.commit');
    expect(backlog.map((e) => e.data.hash)).toEqual(entries.map((e: { hash: string }) => e.hash));
    for (let i = 1; i < n; i++) expect(backlog[i]!.data.prev_hash).toBe(backlog[i - 1]!.data.hash);

    await say('The user says red is still preferred.');
    const more = (await head()) - n;
    expect(more).toBeGreaterThan(0);
    expect(ids(await stream.take(more))).toEqual(range(n + 1, n + more));
    stream.close();
  });

  it('resumes after Last-Event-ID (over ?after=) with every entry exactly once, in order', async () => {
    const start = await head();
    const first = await events(t.val, `?after=${start}`);
    await say('Please use a red interface.');
    await say('Red again, please.');
    const got = await first.take(2);
    first.close();
    // Disconnected: more commits.
    await say('I still want red.');
    await say('Definitely red.');
    const end = await head();
    const last = got.at(-1)!.id!;
    // The header a reconnecting EventSource sends wins over the URL it reconnects to.
    const again = await events(t.val, `?after=${start}`, { 'last-event-id': last });
    const rest = await again.take(end - Number(last));
    again.close();
    expect([...ids(got), ...ids(rest)]).toEqual(range(start + 1, end));
    const byQuery = await events(t.val, `?after=${end - 1}`);
    expect(ids(await byQuery.take(1))).toEqual([end]);
    byQuery.close();
  });

  it("needs the project's own token, never serves the kernel's audit, and refuses bad resume points", async () => {
    const refusals = [
      [await events(null), 401, 'UNAUTHENTICATED'],
      [await events('cnr_not_a_token'), 401, 'UNAUTHENTICATED'],
      [await events(elsewhere), 403, 'FORBIDDEN'],
      [await openEvents(`${live.url}/v1/projects/kernel/events`, auditor), 403, 'FORBIDDEN'],
      [await openEvents(`${live.url}/v1/projects/kernel/events`, t.val), 403, 'FORBIDDEN'],
      [await events(t.val, '', { 'last-event-id': 'abc' }), 400, 'INVALID_ARGUMENT'],
      [await events(t.val, '', { 'last-event-id': '-1' }), 400, 'INVALID_ARGUMENT'],
      [await events(t.val, '', { 'last-event-id': '1.5' }), 400, 'INVALID_ARGUMENT'],
      [await events(t.val, '', { 'last-event-id': '1'.repeat(16) }), 400, 'INVALID_ARGUMENT'],
      [await events(t.val, '?after=x'), 400, 'INVALID_ARGUMENT'],
      [await events(t.val, '?after=1&after=2'), 400, 'INVALID_ARGUMENT'],
      [await events(t.val, '?from=1'), 400, 'INVALID_ARGUMENT'],
    ] as const;
    for (const [stream, status, code] of refusals) {
      expect(stream.status).toBe(status);
      expect(stream.error.error.code).toBe(code);
    }
    const bad = await events(t.val, '', { 'last-event-id': 'abc' });
    expect(bad.error.error.details).toEqual({ field: 'Last-Event-ID' });
    // A resume point past the head (another journal's) is named, not waited for in silence.
    const n = await head();
    const ahead = await events(t.val, '', { 'last-event-id': String(n + 1) });
    expect(ahead.status).toBe(400);
    expect(ahead.error.error.details).toEqual({ field: 'Last-Event-ID', head: n });
    const atHead = await events(t.val, `?after=${n}`);
    expect(atHead.status).toBe(200);
    atHead.close();
  });

  it('summarises each entry by ids and outcomes: no body, gate event, token secret or hash', async () => {
    const start = await head();
    // The speaker's own stream: every entry readable, so every summary is there to inspect.
    const stream = await events(t.alice, `?after=${start}`);
    const secretText = 'A confidential red interface, codename crimson-owl.';
    const message = await say(secretText);
    const proposed = await api('POST', '/proposals', t.alice, {
      object_id: 'ui.codename',
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: 'Codename', text: `The codename is ${secretText}` },
    });
    expect(proposed.status).toBe(201);
    const outcome = proposed.body;
    const gate = outcome.proposal.gate;
    expect(gate.event).not.toBeNull();
    const issued = await api('POST', '/tokens', t.alice, { principal: 'helper', role: 'agent' });
    expect(issued.status).toBe(201);
    const secret: string = issued.body.token;
    const got = await stream.take((await head()) - start);
    stream.close();
    const raw = JSON.stringify(got);
    for (const forbidden of [
      secretText,
      'crimson-owl',
      secret,
      sha256Hex(secret),
      gate.event_hash,
      gate.input_hash,
      JSON.stringify(gate.event),
      'signature',
      'comparison',
      'kernel.verdict',
    ]) {
      expect(raw).not.toContain(forbidden);
    }
    const keys = ['seq', 'kind', 'at', 'actor', 'authority', 'hash', 'prev_hash', 'summary'];
    for (const e of got) expect(Object.keys(e.data).sort()).toEqual([...keys].sort());
    const byKind = (kind: string) => got.filter((e) => e.event === kind).map((e) => e.data);
    expect(byKind('canon.message')[0].summary).toEqual({
      message_id: message.body.message.message_id,
      role: 'user',
      visibility: 'project',
    });
    expect(byKind('canon.classification')[0].summary).toEqual({
      message_id: message.body.message.message_id,
    });
    expect(byKind('canon.proposal')[0].summary).toMatchObject({
      proposal_id: outcome.proposal.proposal_id,
      object_id: 'ui.codename',
      intent: 'create',
      gate: gate.label,
    });
    expect(byKind('canon.commit')[0].summary).toMatchObject({
      proposal_id: outcome.proposal.proposal_id,
      object_id: 'ui.codename',
      version_id: outcome.committed.version_id,
      version_hash: outcome.committed.version_hash,
    });
    expect(byKind('canon.commit')[0].authority).toEqual({
      principal: 'alice',
      role: 'owner',
      project: P,
    });
    expect(byKind('auth.token.issued')[0].summary).toEqual({
      token_id: issued.body.info.token_id,
      principal: 'helper',
      role: 'agent',
    });
  });

  it("redacts another principal's personal entries to their place in the chain", async () => {
    const start = await head();
    const viewer = await events(t.val, `?after=${start}`);
    const speaker = await events(t.eddie, `?after=${start}`);
    const diary = 'My private diary entry about salaries.';
    const r = await api('POST', '/messages?classify=false', t.eddie, {
      text: diary,
      message_id: 'eddie-diary-1',
      visibility: 'personal',
    });
    expect(r.status).toBe(201);
    const [hidden] = await viewer.take(1);
    const [own] = await speaker.take(1);
    viewer.close();
    speaker.close();
    expect(hidden!.event).toBe('redacted');
    expect(hidden!.id).toBe(String(start + 1));
    expect(Object.keys(hidden!.data).sort()).toEqual(['hash', 'prev_hash', 'redacted', 'seq']);
    expect(own!.event).toBe('canon.message');
    expect(own!.data.summary).toEqual({
      message_id: 'eddie-diary-1',
      role: 'user',
      visibility: 'personal',
    });
    expect(own!.data.hash).toBe(hidden!.data.hash);
    expect(JSON.stringify([hidden, own])).not.toContain(diary);
  });
});

describe("a project's answers", () => {
  it('ends the stream of a token revoked while it runs, before the revocation reaches it', async () => {
    const created = await api('POST', '/tokens', t.alice, { principal: 'carol', role: 'viewer' });
    expect(created.status).toBe(201);
    const start = await head();
    const stream = await events(created.body.token, `?after=${start}`);
    expect(stream.status).toBe(200);
    await say('Blue would be better for the app.');
    const said = (await head()) - start;
    expect(ids(await stream.take(said))).toEqual(range(start + 1, start + said));

    const revoked = await api('DELETE', `/tokens/${created.body.info.token_id}`, t.alice);
    expect(revoked.status).toBe(200);
    await say('Green, after all.');
    // Ended at its own revocation's entry: neither it nor anything after it was sent.
    expect(await stream.next()).toBeNull();
  });

  it('answers a HEAD or another method on the stream 405 at once, naming GET', async () => {
    for (const method of ['HEAD', 'POST', 'DELETE']) {
      const res = await fetch(`${live.url}/v1/projects/${P}/events`, {
        method,
        headers: { authorization: `Bearer ${t.val}` },
        signal: AbortSignal.timeout(5_000),
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      if (method !== 'HEAD')
        expect(((await res.json()) as any).error.code).toBe('METHOD_NOT_ALLOWED');
    }
    const validate = await fetch(`${live.url}/v1/validate`);
    expect(validate.status).toBe(405);
    expect(validate.headers.get('allow')).toBe('POST');
    expect((await fetch(`${live.url}/v1/nothing-here`)).status).toBe(404);
  });

  it('are never cached or sniffed: no-store and nosniff, on answers and refusals alike', async () => {
    const answers = [
      await api('GET', '/journal', t.val),
      await api('GET', '/objects', t.alice),
      await api('GET', '/objects', 'cnr_not-a-token'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401]);
    for (const r of answers) {
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('event streams and the server around them', () => {
  it('keep an idle stream alive past the socket timeouts with heartbeats, and end when the server closes', async () => {
    const { dir, cleanup } = tempDir();
    const runtime = acceptNotes(
      await createCanonry({
        dataDir: dir,
        logLevel: 'silent',
        http: { idleTimeoutMs: 600, requestTimeoutMs: 500, headersTimeoutMs: 500 },
      }),
    );
    const app = buildServer(runtime, { logLevel: 'silent' });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { viewer } = await tokensFor(runtime, 'quiet', { viewer: 'viewer' });
      const stream = await openEvents(`${url}/v1/projects/quiet/events`, viewer);
      expect(stream.status).toBe(200);
      // The hooks' headers reach the stream too: its request id, nosniff, no-store.
      expect(stream.headers.get('x-request-id')).toMatch(/\S/);
      expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
      expect(stream.headers.get('cache-control')).toBe('no-store');
      // The opening comment, then heartbeats every 300 ms: 10 of them outlast both timeouts.
      expect(await stream.untilComments(11)).toBe(true);
      const appended = await runtime.journal.append('quiet', {
        kind: 'test.note',
        body: { n: 1 },
        actor: 'tester',
      });
      const [event] = await stream.take(1);
      expect(event).toMatchObject({ id: '1', event: 'test.note' });
      expect(event!.data.summary).toBeNull();
      expect(event!.data.hash).toBe(appended.entry.hash);

      const idle = await openEvents(`${url}/v1/projects/quiet/events?after=1`, viewer);
      // A stream with nothing to send ends when its token is revoked.
      // (In a project of its own: the issue and the revocation are journaled there.)
      const { other } = await tokensFor(runtime, 'hush', { other: 'viewer' });
      const after = (await runtime.journal.head('hush')).seq;
      const revokedIdle = await openEvents(`${url}/v1/projects/hush/events?after=${after}`, other);
      expect(await revokedIdle.untilComments(2)).toBe(true);
      const [info] = await runtime.tokens.list('hush');
      expect(await runtime.tokens.revoke('hush', info!.token_id)).toBe(true);
      expect(await revokedIdle.next()).toBeNull();

      await app.close();
      expect(await stream.next()).toBeNull();
      expect(await idle.next()).toBeNull();
    } finally {
      await app.close();
      await runtime.close();
      cleanup();
    }
  });
});
