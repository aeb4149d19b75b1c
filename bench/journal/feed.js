// @ts-check
/**
 * The live feed over HTTP: commit-to-delivery latency of `GET /v1/projects/:p/events` with 100
 * server-sent-event followers on one project of a served runtime (`canonry serve`, a child process),
 * against a baseline in the same run: one reader polling `GET …/journal?after=` back to back (the
 * freshest a poller can be). A commit is `POST …/proposals` (an owner's create, auto-committed); its
 * latency at a reader is from just before the POST is sent to the moment the reader has the
 * `canon.commit` entry. Rounds alternate (followers connected / the poller running), never both at
 * once. SQLite: one process. PostgreSQL (when reachable): two processes on one schema — commits go
 * through the second, followers and the poller read from the first, so delivery crosses processes
 * (NOTIFY → LISTEN → read).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { BENCH_PG as DATABASE, inSchema } from '../lib/postgres.js';
import { fmtRatio, runIfMain, table } from '../lib/report.js';

const SCOPE = 'journal/feed';
const QUICK = Boolean(process.env.BENCH_QUICK);
const env = (/** @type {string} */ name, /** @type {number} */ fallback) =>
  Number(process.env[name] ?? fallback);
const FOLLOWERS = env('CANONRY_BENCH_FEED_FOLLOWERS', QUICK ? 10 : 100);
/** Commits per round, and rounds per mode (SSE rounds alternate with poll rounds). */
const COMMITS = env('CANONRY_BENCH_FEED_COMMITS', QUICK ? 5 : 25);
const ROUNDS = env('CANONRY_BENCH_FEED_ROUNDS', QUICK ? 2 : 6);
/** A pause between commits, so each is measured on a quiet server. */
const GAP_MS = 20;
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const PROJECT = 'bench';

/**
 * Starts `canonry serve` and resolves once it listens.
 * @param {string} data @param {string[]} args
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
function serve(data, args) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', data, ...args], {
    env: { ...process.env, CANONRY_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  return new Promise((ready, failed) => {
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const url = /listening on (http:\/\/[^\s]+)/.exec(err)?.[1];
      if (url)
        ready({
          url,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    });
    child.once('exit', (code) => failed(new Error(`serve exited (${code}): ${err}`)));
  });
}

/** A token of the bench project, issued with the CLI. @param {string} data @param {string[]} db @param {string} principal @param {string} role */
function token(data, db, principal, role) {
  const out = execFileSync(
    process.execPath,
    [
      CLI,
      'tokens',
      'create',
      '--project',
      PROJECT,
      '--principal',
      principal,
      '--role',
      role,
    ].concat(['--data', data, ...db, '--json']),
    { encoding: 'utf8' },
  );
  return /** @type {string} */ (JSON.parse(out).token);
}

/**
 * Who is waiting for which object's commit: the POST's start time and the arrival times so far.
 * @type {Map<string, { t0: number, want: number, arrivals: number[], done: () => void }>}
 */
const waiting = new Map();

/** A reader has the commit of `object`. @param {string} object */
function arrived(object) {
  const w = waiting.get(object);
  if (!w) return;
  w.arrivals.push(performance.now() - w.t0);
  if (w.arrivals.length === w.want) w.done();
}

/**
 * One SSE follower over a plain socket: frames are scanned for `event: canon.commit` and the object
 * id in their summary, nothing else is parsed.
 * @param {string} url @param {string} bearer @param {number} after
 * @returns {Promise<() => void>} resolves once the stream is open, to a function that closes it
 */
function follow(url, bearer, after) {
  return new Promise((open, failed) => {
    const req = http.get(
      `${url}/v1/projects/${PROJECT}/events?after=${after}`,
      { headers: { authorization: `Bearer ${bearer}` } },
      (res) => {
        if (res.statusCode !== 200) return failed(new Error(`events: ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk) => {
          buffer += chunk;
          for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (!frame.includes('\nevent: canon.commit\n')) continue;
            const object = /"object_id":"([^"]+)"/.exec(frame)?.[1];
            if (object) arrived(object);
          }
        });
        res.on('error', () => undefined);
        open(() => req.destroy());
      },
    );
    req.on('error', () => undefined);
  });
}

/**
 * The baseline reader: `GET …/journal?after=cursor` back to back until stopped.
 * @param {string} url @param {string} bearer @param {number} after
 */
function poll(url, bearer, after) {
  let running = true;
  const loop = (async () => {
    let cursor = after;
    while (running) {
      const res = await fetch(`${url}/v1/projects/${PROJECT}/journal?after=${cursor}&limit=1000`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      const page = /** @type {{ entries: any[] }} */ (await res.json());
      for (const entry of page.entries) {
        cursor = entry.seq;
        if (entry.kind === 'canon.commit') arrived(entry.body.version.note_id);
      }
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

let objects = 0;

/**
 * Commits one new object through `url` and waits until `readers` readers have it.
 * @param {string} url @param {string} bearer @param {number} readers
 * @returns {Promise<{ arrivals: number[], ack: number }>}
 */
async function commit(url, bearer, readers) {
  const object = `bench.o${++objects}`;
  /** @type {() => void} */
  let done = () => undefined;
  const all = new Promise((resolve) => {
    done = () => resolve(undefined);
  });
  const w = { t0: performance.now(), want: readers, arrivals: /** @type {number[]} */ ([]), done };
  waiting.set(object, w);
  const res = await fetch(`${url}/v1/projects/${PROJECT}/proposals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({
      object_id: object,
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: object, text: `The ${object} holds.` },
    }),
  });
  const body = /** @type {any} */ (await res.json());
  const ack = performance.now() - w.t0;
  if (res.status !== 201 || body.proposal.status !== 'committed')
    throw new Error(`commit refused: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  let timer;
  await Promise.race([
    all,
    new Promise((_, failed) => {
      timer = setTimeout(
        () => failed(new Error(`${object}: ${w.arrivals.length} of ${readers} readers after 30 s`)),
        30_000,
      );
    }),
  ]);
  clearTimeout(timer);
  waiting.delete(object);
  await new Promise((r) => setTimeout(r, GAP_MS));
  return { arrivals: w.arrivals, ack };
}

/** The project's head seq as a reader sees it. @param {string} url @param {string} bearer */
async function head(url, bearer) {
  const res = await fetch(`${url}/v1/projects/${PROJECT}/journal?limit=1`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  return /** @type {number} */ (/** @type {any} */ (await res.json()).head.seq);
}

/**
 * Alternating rounds on one setup: `read` is where readers connect, `write` where commits go.
 * @param {string} name @param {{ read: string, write: string, owner: string, viewer: string }} setup
 */
async function measure(name, { read, write, owner, viewer }) {
  const sse = /** @type {number[]} */ ([]);
  const polled = /** @type {number[]} */ ([]);
  const acks = /** @type {number[]} */ ([]);
  const perRound = /** @type {{ sse: number, poll: number }[]} */ ([]);
  for (let round = 0; round <= ROUNDS; round++) {
    const warm = round === 0;
    const order = round % 2 === 0 ? ['sse', 'poll'] : ['poll', 'sse'];
    const medians = { sse: 0, poll: 0 };
    for (const mode of order) {
      const at = await head(read, viewer);
      const closers =
        mode === 'sse'
          ? await Promise.all(Array.from({ length: FOLLOWERS }, () => follow(read, viewer, at)))
          : [poll(read, viewer, at)];
      const here = /** @type {number[]} */ ([]);
      for (let i = 0; i < (warm ? 3 : COMMITS); i++) {
        const { arrivals, ack } = await commit(write, owner, mode === 'sse' ? FOLLOWERS : 1);
        here.push(...arrivals);
        if (!warm) acks.push(ack);
      }
      for (const close of closers) await close();
      if (warm) continue;
      (mode === 'sse' ? sse : polled).push(...here);
      medians[/** @type {'sse' | 'poll'} */ (mode)] = median(here);
    }
    if (warm) continue;
    perRound.push(medians);
    progress(
      SCOPE,
      `${name} round ${round}/${ROUNDS}: SSE median ${medians.sse.toFixed(2)} ms, poll median ${medians.poll.toFixed(2)} ms`,
    );
  }
  const stats = (/** @type {number[]} */ v) => ({
    median: median(v),
    p99: quantile(v, 0.99),
    samples: v.length,
  });
  return {
    sse: stats(sse),
    poll: stats(polled),
    ack: stats(acks),
    perRound,
    medianRatio: median(sse) / median(polled),
    p99Ratio: quantile(sse, 0.99) / quantile(polled, 0.99),
  };
}

/** Whether PostgreSQL answers (the PostgreSQL rows are skipped, with a note, when it does not). */
async function postgresUp() {
  if (process.env.CANONRY_BENCH_FEED_PG === 'off') return false;
  const client = new pg.Client({ connectionString: DATABASE, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-feed-'));
  /** @type {Record<string, Awaited<ReturnType<typeof measure>>>} */
  const results = {};
  /** @type {(() => Promise<void>)[]} */
  const cleanups = [];
  try {
    progress(SCOPE, `${FOLLOWERS} followers, ${COMMITS} commits a round, ${ROUNDS} rounds a mode`);
    {
      const data = join(dir, 'sqlite');
      const owner = token(data, [], 'owner', 'owner');
      const viewer = token(data, [], 'viewer', 'viewer');
      const server = await serve(data, []);
      cleanups.push(server.stop);
      progress(SCOPE, 'sqlite: one canonry serve');
      results.sqlite = await measure('sqlite', {
        read: server.url,
        write: server.url,
        owner,
        viewer,
      });
      await server.stop();
    }
    if (await postgresUp()) {
      const schema = `bench_feed_${Date.now().toString(36)}_${process.pid}`;
      const admin = new pg.Client({ connectionString: DATABASE });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      cleanups.push(async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      });
      const db = ['--db', inSchema(schema)];
      const data = join(dir, 'postgres');
      const owner = token(data, db, 'owner', 'owner');
      const viewer = token(data, db, 'viewer', 'viewer');
      const [first, second] = await Promise.all([serve(data, db), serve(data, db)]);
      cleanups.push(first.stop, second.stop);
      progress(SCOPE, `postgres: two canonry serve processes on schema ${schema}`);
      results.postgres = await measure('postgres', {
        read: first.url,
        write: second.url,
        owner,
        viewer,
      });
    } else progress(SCOPE, 'PostgreSQL unreachable (or CANONRY_BENCH_FEED_PG=off): sqlite only');
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }

  const ms = (/** @type {number} */ v) => v.toFixed(2);
  const rows = Object.entries(results).flatMap(([engine, r]) => {
    const label = engine === 'sqlite' ? 'SQLite, 1 process' : 'PostgreSQL, 2 processes';
    return [
      [
        `${label}: SSE, ${FOLLOWERS} followers`,
        ms(r.sse.median),
        ms(r.sse.p99),
        fmtInt(r.sse.samples),
      ],
      [`${label}: tight poll, 1 reader`, ms(r.poll.median), ms(r.poll.p99), fmtInt(r.poll.samples)],
      [`${label}: the commit's own answer`, ms(r.ack.median), ms(r.ack.p99), fmtInt(r.ack.samples)],
    ];
  });
  const ratios = Object.entries(results).map(([engine, r]) => [
    engine,
    fmtRatio(r.medianRatio),
    fmtRatio(r.p99Ratio),
    r.perRound.map((x) => fmtRatio(x.sse / x.poll)).join(' '),
  ]);
  return {
    name: 'feed',
    title: `journal/feed: commit-to-delivery latency, ${FOLLOWERS} SSE followers vs a tight poller`,
    tables: [
      table(['reader', 'median ms', 'p99 ms', 'samples'], rows),
      table(['engine', 'SSE ÷ poll, median', 'SSE ÷ poll, p99', 'per round (median)'], ratios),
    ],
    data: { followers: FOLLOWERS, commits: COMMITS, rounds: ROUNDS, gapMs: GAP_MS, results },
  };
}

runIfMain(import.meta.url, main);
