// The live feed's bounds, against a real server on loopback with a real SQLite file: streams the
// server holds at once (CANONRY_EVENT_STREAMS) and per principal, refused past them with a typed
// error and Retry-After; a slot given back when its client goes; and a client that stops reading
// ended by the idle timeout instead of holding its slot, socket and buffer forever; and what one
// stream holds of the journal at once: a page of at most 100 entries and 2 MiB.
import { get } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import type { JournalEntry } from '../../src/journal/index.js';
import { buildServer } from '../../src/server/index.js';
import { tokensFor } from '../helpers/auth.js';
import { create, PROJECT, principal } from '../helpers/canon.js';
import { acceptNotes } from '../helpers/journal.js';
import { tempDir } from '../helpers/runtime.js';
import { openEvents, type SseStream } from '../helpers/sse.js';

async function server(eventStreams: number) {
  const { dir, cleanup } = tempDir();
  const runtime = acceptNotes(
    await createCanonry({
      dataDir: dir,
      logLevel: 'silent',
      eventStreams,
      // Heartbeats every 300 ms: a stalled client is found within seconds.
      http: { idleTimeoutMs: 600, requestTimeoutMs: 500, headersTimeoutMs: 500 },
    }),
  );
  const app = buildServer(runtime, { logLevel: 'silent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    runtime,
    url,
    close: async () => {
      await app.close();
      await runtime.close();
      cleanup();
    },
  };
}

/** Polls `check` every 50 ms until it holds, for `ms` at most. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Opens `url` as `token` until the server grants a stream (200), for `ms` at most; else throws. */
async function granted(url: string, token: string, ms: number): Promise<SseStream> {
  let stream = await openEvents(url, token);
  const ok = await eventually(async () => {
    if (stream.status === 200) return true;
    stream = await openEvents(url, token);
    return stream.status === 200;
  }, ms);
  if (!ok) throw new Error(`no stream within ${ms} ms: still ${stream.status}`);
  return stream;
}

describe('event streams: how many, and for how long', () => {
  it('refuses a stream past the server’s limit (503) and past a principal’s share (429), with Retry-After, and gives a slot back when its client goes', async () => {
    // Three streams at once, one per principal (3 / 16, at least one).
    const s = await server(3);
    try {
      const tok = await tokensFor(s.runtime, 'feed', {
        a: 'viewer',
        b: 'viewer',
        c: 'viewer',
        d: 'viewer',
      });
      const at = `${s.url}/v1/projects/feed/events`;
      const a1 = await openEvents(at, tok.a);
      expect(a1.status).toBe(200);
      const a2 = await openEvents(at, tok.a);
      expect(a2.status).toBe(429);
      expect(a2.error.error.code).toBe('RATE_LIMITED');
      expect(Number(a2.headers.get('retry-after'))).toBeGreaterThan(0);
      const b1 = await openEvents(at, tok.b);
      const c1 = await openEvents(at, tok.c);
      expect([b1.status, c1.status]).toEqual([200, 200]);
      const d1 = await openEvents(at, tok.d);
      expect(d1.status).toBe(503);
      expect(d1.error.error.code).toBe('EVENT_STREAMS_FULL');
      expect(Number(d1.headers.get('retry-after'))).toBeGreaterThan(0);
      // The streams still flow.
      await s.runtime.journal.append('feed', { kind: 'test.note', body: { n: 1 }, actor: 'x' });
      expect((await b1.take(1))[0]!.id).toBe('1');
      // A client that goes gives its slot back, to anyone.
      a1.close();
      const d2 = await granted(at, tok.d, 5_000);
      d2.close();
      b1.close();
      c1.close();
    } finally {
      await s.close();
    }
  });

  it('ends the stream of a client that stopped reading, and frees its slot', async () => {
    const s = await server(1);
    try {
      const { v } = await tokensFor(s.runtime, 'flood', { v: 'viewer' });
      // A raw client that asks for the stream and then never reads a byte.
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(s.url).port) });
      socket.pause();
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(
        `GET /v1/projects/flood/events HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${v}\r\n\r\n`,
      );
      // Its slot is taken: the server's one stream.
      expect(
        await eventually(
          async () => (await openEvents(`${s.url}/v1/projects/flood/events`, v)).status === 503,
          5_000,
        ),
      ).toBe(true);
      // Enough to fill the socket's buffers many times over: 40,000 events, ~8 MB of frames (a
      // stream sends summaries, not bodies).
      for (let i = 0; i < 400; i++) {
        await s.runtime.journal.appendAll(
          'flood',
          Array.from({ length: 100 }, (_, n) => ({ kind: 'test.note', body: { n }, actor: 'x' })),
        );
      }
      // With its socket full, no write completes and no heartbeat is sent: the idle timeout (600 ms)
      // ends the stream, and its slot is free.
      const next = await granted(`${s.url}/v1/projects/flood/events?after=40000`, v, 15_000);
      next.close();
      socket.destroy();
    } finally {
      await s.close();
    }
  });

  it('ends a stream whose client went while its summary was read, leaving no timer behind', async () => {
    const s = await server(64);
    try {
      // A rejected proposal: its summary reads the proposal (a round trip on PostgreSQL), here
      // slowed to 200 ms so that every client has gone before it returns.
      const agent = principal('ann', 'agent');
      const made = await create(s.runtime, agent, 'decision.slow', { object_type: 'decision' });
      expect(made.proposal.status).toBe('pending');
      await s.runtime.canon.reject(agent, made.proposal.proposal_id, 'withdrawn');
      const entries = await s.runtime.journal.read(PROJECT, { after: 0, limit: 100 });
      const rejected = entries.find((e) => e.kind === 'canon.reject')!;
      const canon = s.runtime.canon;
      const reader = canon.reader.bind(canon);
      canon.reader = ((...args: Parameters<typeof reader>) => {
        const r = reader(...args);
        const proposal = r.proposal.bind(r);
        r.proposal = async (id: string) => {
          await new Promise((done) => setTimeout(done, 200));
          return proposal(id);
        };
        return r;
      }) as typeof canon.reader;
      const { v } = await tokensFor(s.runtime, PROJECT, { v: 'viewer' });
      const timers = () => process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
      const before = timers();
      const port = Number(new URL(s.url).port);
      for (let i = 0; i < 10; i++) {
        await new Promise<void>((done) => {
          const req = get(
            {
              host: '127.0.0.1',
              port,
              path: `/v1/projects/${PROJECT}/events?after=${rejected.seq - 1}`,
              headers: { authorization: `Bearer ${v}` },
            },
            (res) =>
              // The opening comment came; the summary is being read: go.
              res.once('data', () => {
                req.destroy();
                done();
              }),
          );
        });
      }
      // Every summary has been read by now, and every stream has seen its client gone.
      expect(
        await eventually(async () => timers() <= before, 3_000),
        `Timeout handles: ${timers()} against ${before} before the streams`,
      ).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('reads a stream’s journal in pages of at most 2 MiB (one entry at least): every entry still streams in order, resumable by Last-Event-ID', async () => {
    const s = await server(4);
    try {
      const { v } = await tokensFor(s.runtime, 'bulky', { v: 'viewer' });
      // Ten entries of ~600 KB: a page of 100 by count alone would hold all 6 MB of them.
      for (let n = 1; n <= 10; n++) {
        const body = { n, text: String(n % 10).repeat(600_000) };
        await s.runtime.journal.append('bulky', { kind: 'test.note', body, actor: 'x' });
      }
      // What the stream's follower reads, page by page: the journal's own read, on this instance.
      const journal = s.runtime.journal;
      const read = journal.read.bind(journal);
      const pages: number[][] = [];
      const size = (e: JournalEntry) =>
        Buffer.byteLength(JSON.stringify(e.body)) + Buffer.byteLength(JSON.stringify(e.authority));
      journal.read = async (...args: Parameters<typeof read>) => {
        const page = await read(...args);
        if (args[0] === 'bulky') pages.push(page.map(size));
        return page;
      };
      const at = `${s.url}/v1/projects/bulky/events`;
      const stream = await openEvents(at, v);
      expect(stream.status).toBe(200);
      const first = await stream.take(4);
      expect(first.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
      stream.close();
      const resumed = await openEvents(at, v, { 'last-event-id': '4' });
      expect(resumed.status).toBe(200);
      const rest = await resumed.take(6);
      expect(rest.map((e) => e.id)).toEqual(['5', '6', '7', '8', '9', '10']);
      expect(rest.map((e) => e.event)).toEqual(Array(6).fill('test.note'));
      resumed.close();
      expect(pages.length).toBeGreaterThanOrEqual(4);
      for (const page of pages.filter((p) => p.length > 0)) {
        expect(page.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2 * 1024 * 1024);
      }
      expect(Math.max(...pages.map((p) => p.length))).toBe(3);
    } finally {
      await s.close();
    }
  });
});
