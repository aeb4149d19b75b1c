// The live feed across processes: two `canonry serve` children on one PostgreSQL schema (one data
// directory, so one trust root). A client streaming events from the first sees a commit made through
// the second (PostgreSQL NOTIFY reaching the first process's LISTEN); after a disconnect and more
// commits through both, reconnecting with Last-Event-ID yields every entry exactly once, in order.
// Validations on both at once: the kernel audit of one process is forwarded to the other, which
// leads the project (serve's default on PostgreSQL; here with CANONRY_FORWARD_TLS=on, so the wire
// is TLS on loopback too, and the lease publishes it), and the audit's chain verifies.
// Nothing here is timed: each wait is for an event, under the suite's timeout.
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { call } from '../helpers/auth.js';
import { runCli } from '../helpers/cli.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';
import { openEvents, type SseEvent, type SseStream } from '../helpers/sse.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const P = 'shared';
let dir: string;
let cleanup: () => void;
let drop: () => Promise<void>;
let data: string;
let db: string;
let first: ServeProcess;
let second: ServeProcess;
const t: Record<'alice' | 'val' | 'stranger', string> = { alice: '', val: '', stranger: '' };

async function token(data: string, db: string, project: string, principal: string, role: string) {
  const issued = await runCli([
    'tokens',
    'create',
    '--project',
    project,
    '--principal',
    principal,
    '--role',
    role,
    '--data',
    data,
    '--db',
    db,
    '--json',
  ]);
  expect(issued.code, issued.stderr).toBe(0);
  return JSON.parse(issued.stdout).token as string;
}

describe.skipIf(!postgresAvailable)('the event stream across two serve processes', () => {
  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    data = join(dir, 'data');
    db = schema.url;
    t.alice = await token(data, schema.url, P, 'alice', 'owner');
    t.val = await token(data, schema.url, P, 'val', 'viewer');
    t.stranger = await token(data, schema.url, 'elsewhere', 'olga', 'owner');
    const args = ['--db', schema.url];
    const env = { CANONRY_FORWARD_TLS: 'on' };
    [first, second] = await Promise.all([
      startServe(data, { args, env, timeoutMs: 60_000 }),
      startServe(data, { args, env, timeoutMs: 60_000 }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await drop?.();
    cleanup?.();
  });

  const propose = async (served: ServeProcess, id: string) => {
    const r = await call(served.url, 'POST', `/v1/projects/${P}/proposals`, t.alice, {
      object_id: id,
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: id, text: `The ${id} is settled.` },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.proposal.status).toBe('committed');
    return r.body;
  };
  const events = (served: ServeProcess, headers: Record<string, string> = {}) =>
    openEvents(`${served.url}/v1/projects/${P}/events`, t.val, headers);
  /** Reads events until the commit of `object`; returns everything read. */
  const untilCommit = async (stream: SseStream, object: string): Promise<SseEvent[]> => {
    const seen: SseEvent[] = [];
    for (;;) {
      const event = await stream.next();
      if (!event) throw new Error(`the stream ended before ${object} committed`);
      seen.push(event);
      if (event.event === 'canon.commit' && event.data.summary.object_id === object) return seen;
    }
  };
  const journalSeqs = async () => {
    const r = await call(second.url, 'GET', `/v1/projects/${P}/journal?limit=1000`, t.val);
    expect(r.status).toBe(200);
    return (r.body.entries as { seq: number }[]).map((e) => e.seq);
  };

  it('a client of the first process sees a commit made through the second', async () => {
    const stream = await events(first);
    expect(stream.status).toBe(200);
    const outcome = await propose(second, 'feed.one');
    const seen = await untilCommit(stream, 'feed.one');
    stream.close();
    const commit = seen.at(-1)!;
    expect(commit.data.summary).toMatchObject({
      proposal_id: outcome.proposal.proposal_id,
      version_hash: outcome.committed.version_hash,
    });
    expect(commit.data.authority).toEqual({ principal: 'alice', role: 'owner', project: P });
    // Everything the project had, in order, from seq 1.
    expect(seen.map((e) => Number(e.id))).toEqual(
      Array.from({ length: seen.length }, (_, i) => i + 1),
    );
  });

  it('reconnecting with Last-Event-ID after commits through both processes loses nothing', async () => {
    const stream = await events(first);
    const before = await untilCommit(stream, 'feed.one');
    await propose(second, 'feed.two');
    const partial = [...before, ...(await untilCommit(stream, 'feed.two'))];
    stream.close();
    // Disconnected: commits through the second and the first.
    await propose(second, 'feed.three');
    await propose(first, 'feed.four');
    await propose(second, 'feed.five');
    const last = partial.at(-1)!.id!;
    const resumed = await events(first, { 'last-event-id': last });
    const rest = await untilCommit(resumed, 'feed.five');
    resumed.close();
    const ids = [...partial, ...rest].map((e) => Number(e.id));
    expect(ids).toEqual(await journalSeqs());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("validations on both: each process's kernel audit reaches the project's leader, one chain", async () => {
    const forwarded = async (served: ServeProcess, direction: 'sent' | 'received') => {
      const text = await (await fetch(`${served.url}/metrics`)).text();
      const line = new RegExp(
        `^canonry_journal_forwarded_total\\{direction="${direction}"\\} (\\S+)$`,
        'm',
      );
      return Number(line.exec(text)?.[1] ?? Number.NaN);
    };
    const validate = (served: ServeProcess, amount: number) =>
      fetch(`${served.url}/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          artifact: { amount },
          agentic_protocol: refundProtocol(),
          generation_metadata_hash: EMPTY_METADATA_HASH,
        }),
      }).then((r) => r.status);
    // Both processes audit every verdict in the `kernel` project: once one sees the other move its
    // head, its audit batches go to whichever leads it (serve forwards on loopback by default).
    let sent = 0;
    for (let round = 0; round < 15 && sent === 0; round++) {
      const statuses = await Promise.all(
        [first, second].flatMap((served) =>
          Array.from({ length: 16 }, (_, i) => validate(served, 10 + i)),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
      sent = (await forwarded(first, 'sent')) + (await forwarded(second, 'sent'));
    }
    expect(sent).toBeGreaterThan(0);
    const received = (await forwarded(first, 'received')) + (await forwarded(second, 'received'));
    expect(received).toBeGreaterThanOrEqual(sent);
    // The leader published a TLS wire on loopback, as CANONRY_FORWARD_TLS=on asks.
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      const { rows } = await client.query<{ address: string }>(
        "SELECT address FROM journal_leaders WHERE project = 'kernel'",
      );
      expect(rows[0]?.address).toMatch(/^tls:127\.0\.0\.1:\d+$/);
    } finally {
      await client.end();
    }
    const verified = await runCli([
      'journal',
      'verify',
      '--project',
      'kernel',
      '--data',
      data,
      '--db',
      db,
      '--json',
    ]);
    expect(verified.code, verified.stderr).toBe(0);
  });

  it("refuses another project's token and a missing one, as the other project routes do", async () => {
    const stranger = await openEvents(`${first.url}/v1/projects/${P}/events`, t.stranger);
    expect(stranger.status).toBe(403);
    expect(stranger.error.error.code).toBe('FORBIDDEN');
    const journal = await call(first.url, 'GET', `/v1/projects/${P}/journal`, t.stranger);
    expect(journal.status).toBe(403);
    const anonymous = await openEvents(`${second.url}/v1/projects/${P}/events`, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.error.error.code).toBe('UNAUTHENTICATED');
  });
});
