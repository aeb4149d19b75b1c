// @ts-check
/**
 * The worst protocols an attacker can send to the public `POST /v1/validate` (bench/lib/hostile.js)
 * against the refund protocol, in the same run. Two views of the same question — how long can one
 * request hold the event loop? — each against the target of ~50 ms on this machine:
 *
 * 1. In process: the synchronous work of one request, timed from the body text to the envelope:
 *    parse (canonry's bounded JSON parser), compile the inline protocol (a fresh version each time,
 *    so the compile cache never helps, as it would not help an attacker), resolve within the step
 *    budgets, sign when conformant, build the bounded audit record. The heap is collected before
 *    each case, then two untimed requests warm the JIT on its shape.
 * 2. Over HTTP: `canonry serve` in a child process while a probe asks `GET /healthz` every 2 ms;
 *    the longest probe wait during a hostile request is how long the server could answer nobody.
 *    The server decides these bodies on its evaluation threads; the "registered … in the server's
 *    thread" cases are the small by-hash bodies it keeps on its event loop.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEFAULT_MAX_JSON_KEYS, DEFAULT_MAX_JSON_VALUES, parseJsonText } from 'canonry/core';
import { compileProtocol, EVALUATION_BUDGET, Kernel, MemoryAuditSink } from 'canonry/kernel';
import { IN_PROCESS_MAX_BYTES } from 'canonry/server';
import { Keyring } from 'canonry/trust';
import { collect as gc } from '../lib/gc.js';
import { EMPTY_METADATA_HASH, worstCases } from '../lib/hostile.js';
import { median, progress } from '../lib/measure.js';
import { refundProtocol } from '../lib/refund.js';
import { runIfMain, table } from '../lib/report.js';
import { schemaWorstBodies } from './schema-worst.js';
import { ruleWorstCases } from './worst-rules.js';

const SCOPE = 'kernel/worst-case';
// Each case starts from a collected heap: what its requests hold the loop for is their own work and
// garbage, not the leftovers of the hostile cases before it in this process.
/** The longest a single request may hold the event loop, in ms (issue 11). */
export const TARGET_MS = 50;
// Smoke runs: `--http-only` skips the in-process timings, `--rounds N` sends N requests per case
// over HTTP. The full run (bench/run.js) uses neither.
const HTTP_ONLY = process.argv.includes('--http-only');
const ROUNDS_FLAG = process.argv.indexOf('--rounds');
const ROUNDS = 15;
const HTTP_ROUNDS = ROUNDS_FLAG > 0 ? Number(process.argv[ROUNDS_FLAG + 1]) : 5;
// `--only <text>`: only the cases whose name contains the text (the baseline always runs).
const ONLY_FLAG = process.argv.indexOf('--only');
const ONLY = ONLY_FLAG > 0 ? process.argv[ONLY_FLAG + 1] : undefined;
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** Measures the server's own event-loop delay (see the file). */
const LOOP_DELAY_PRELOAD = new URL('./loop-delay-preload.js', import.meta.url).href;
/** The server's body limit (1 MiB). */
const BODY_LIMIT = 1024 * 1024;

/**
 * A case: its §6 body; `registered` when the body names the protocol by hash (registered first).
 * @typedef {{ name: string, body: { artifact: unknown, agentic_protocol: Record<string, unknown> | string, generation_metadata_hash: string }, registered?: Record<string, unknown> }} Case
 */

/**
 * The same body with a protocol version never seen before (so nothing is cached); a body naming a
 * registered protocol by hash is sent as it is.
 * @param {Case['body']} body @param {number} n
 */
function fresh(body, n) {
  if (typeof body.agentic_protocol === 'string') return JSON.stringify(body);
  return JSON.stringify({
    ...body,
    agentic_protocol: { ...body.agentic_protocol, version: `bench-${n}` },
  });
}

/** Whether a case's body is over the server's 1 MiB body limit. @param {Case} c */
function tooLarge(c) {
  return Buffer.byteLength(fresh(c.body, 0)) > BODY_LIMIT;
}

/** @returns {Case} */
function refundCase() {
  return {
    name: 'refund protocol (baseline)',
    body: {
      artifact: { amount: 640 },
      agentic_protocol: refundProtocol(),
      generation_metadata_hash: EMPTY_METADATA_HASH,
    },
  };
}

/**
 * Times `rounds` requests of a case in process; resolves to the times (ms), the status, and the
 * private reason the audit recorded.
 * @param {Kernel} kernel @param {MemoryAuditSink} audit @param {Case} c @param {number} base
 * @param {number} [rounds]
 */
async function inProcess(kernel, audit, c, base, rounds = ROUNDS) {
  /** @type {number[]} */
  const times = [];
  let status = 0;
  let reason = '';
  for (let i = 0; i < rounds; i++) {
    const text = fresh(c.body, base + i);
    const t0 = performance.now();
    let evaluation;
    try {
      // What the server's body parser does first: depth and value bounds, then JSON.parse.
      evaluation = await kernel.validate(
        parseJsonText(text, 64, { values: DEFAULT_MAX_JSON_VALUES, keys: DEFAULT_MAX_JSON_KEYS }),
      );
      status = evaluation.httpStatus;
      reason = audit.records.at(-1)?.detail.reason ?? '';
    } catch (err) {
      status = /** @type {{ status?: number }} */ (err).status ?? 500;
      reason = /** @type {{ code?: string }} */ (err).code ?? 'thrown';
    }
    times.push(performance.now() - t0);
  }
  return { times, status, reason };
}

/**
 * Starts `canonry serve`; resolves to its URL, a stop function and what it wrote to stderr (to show
 * if it dies).
 * `loopMax` asks the server for the longest event-loop delay since the last ask
 * (bench/kernel/loop-delay-preload.js).
 * `thread` says how long its main thread ran and waited for a CPU in the last interval
 * (CANONRY_BENCH_SCHEDSTAT=1; empty otherwise).
 * @param {string} data @returns {Promise<{ url: string, stop: () => Promise<void>, log: () => string, loopMax: () => Promise<number>, thread: () => string }>}
 */
function serve(data) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', data], {
    env: {
      ...process.env,
      CANONRY_LOG_LEVEL: 'warn',
      CANONRY_VALIDATE_RATE_LIMIT: 'off',
      NODE_OPTIONS: `--import ${LOOP_DELAY_PRELOAD}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  let err = '';
  let lastThread = '';
  /** @type {((ms: number) => void)[]} */
  const waiting = [];
  return new Promise((ready, failed) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      err += chunk;
      for (const [, ms, thread] of chunk.matchAll(/^loop-delay-max (\S+)(.*)$/gm)) {
        if (thread) lastThread = thread.trim();
        waiting.shift()?.(Number(ms));
      }
      const url = /listening on (http:\/\/\S+)/.exec(err)?.[1];
      if (url)
        ready({
          url,
          log: () => err,
          thread: () => lastThread,
          loopMax: () =>
            new Promise((answer) => {
              waiting.push(answer);
              child.kill('SIGUSR2');
            }),
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    });
    child.once('exit', (code) => failed(new Error(`serve exited (${code}): ${err}`)));
  });
}

/**
 * The probe: a worker thread with an event loop of its own that asks `GET /healthz` every 2 ms and
 * keeps the longest wait, so what the bench's own thread does (building request bodies) never
 * shows as the server's. A failed probe request counts, and the next one goes on.
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let worst = 0, failures = 0, stop = false;
parentPort.on('message', (m) => {
  if (m === 'reset') { worst = 0; failures = 0; }
  else if (m === 'read') parentPort.postMessage({ worst, failures });
  else if (m === 'stop') stop = true;
});
(async () => {
  while (!stop) {
    const t0 = performance.now();
    try { await (await fetch(workerData.url + '/healthz')).arrayBuffer(); }
    catch { failures++; }
    worst = Math.max(worst, performance.now() - t0);
    await new Promise((r) => setTimeout(r, 2));
  }
  process.exit(0);
})();
`;

/** @param {Worker} probe @param {'reset' | 'read'} message */
function ask(probe, message) {
  if (message === 'reset') {
    probe.postMessage('reset');
    return Promise.resolve({ worst: 0, failures: 0 });
  }
  return new Promise((done) => {
    probe.once('message', done);
    probe.postMessage('read');
  });
}

/**
 * Sends a case HTTP_ROUNDS times (bodies built before the probe is reset) and reads the longest
 * probe wait (ms) seen meanwhile.
 * @param {string} url @param {Worker} probe @param {Case} c @param {number} base
 */
async function overHttp(url, probe, c, base) {
  const bodies = Array.from({ length: HTTP_ROUNDS }, (_, i) => fresh(c.body, base + i));
  await ask(probe, 'reset');
  /** @type {number[]} */
  const times = [];
  for (const body of bodies) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`${c.name}: HTTP ${res.status}`);
    times.push(performance.now() - t0);
  }
  const { worst, failures } = /** @type {{ worst: number, failures: number }} */ (
    await ask(probe, 'read')
  );
  return { probeMax: worst, probeFailures: failures, times };
}

const ms = (/** @type {number} */ n) => n.toFixed(1);

/**
 * The worst rules over artifacts of a few KiB, their protocols registered and named by hash: bodies
 * the server decides in its own thread (at most IN_PROCESS_MAX_BYTES, a protocol it has compiled),
 * where only the step budgets bound the work.
 * @returns {Case[]}
 */
function registeredCases() {
  return ruleWorstCases({ small: true })
    .map((c) => {
      const protocol = c.body.agentic_protocol;
      return {
        name: `registered, ≤ ${IN_PROCESS_MAX_BYTES / 1024} KiB, in the server's thread: ${c.name}`,
        body: { ...c.body, agentic_protocol: compileProtocol(protocol).hash },
        registered: protocol,
      };
    })
    .filter((c) => Buffer.byteLength(JSON.stringify(c.body)) <= IN_PROCESS_MAX_BYTES);
}

/** An editor's token for registering protocols, issued with the CLI. @param {string} data */
function issueToken(data) {
  const out = execFileSync(
    process.execPath,
    [CLI, 'tokens', 'create', '--project', 'bench', '--principal', 'bench', '--role', 'editor'],
    { env: { ...process.env, CANONRY_DATA: data }, encoding: 'utf8' },
  );
  return out.split('\n')[0] ?? '';
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-worst-'));
  try {
    const keyring = await Keyring.init(join(dir, 'keys'));
    const audit = new MemoryAuditSink();
    const kernel = new Kernel({ signer: keyring.signer(), audit });
    const cases = [
      refundCase(),
      ...worstCases(),
      ...schemaWorstBodies(),
      ...ruleWorstCases(),
      ...registeredCases(),
    ].filter((c, i) => i === 0 || ONLY === undefined || c.name.includes(ONLY));
    progress(
      SCOPE,
      `budgets: constraints ${EVALUATION_BUDGET.constraints}, rules ${EVALUATION_BUDGET.rules} steps`,
    );
    for (const c of cases) if (c.registered) await kernel.registry.register(c.registered);
    /** @type {Record<string, any>} */
    const results = {};
    for (const [i, c] of cases.entries()) {
      if (HTTP_ONLY) {
        results[c.name] = { times: [0], status: 0, reason: '(not timed)', median: 0, max: 0 };
        continue;
      }
      // The heap collected of the cases before, then two untimed requests (the JIT warmed on this
      // shape, as a server's is after a few), then the timed ones.
      gc();
      await inProcess(kernel, audit, c, 1e6 + i * 1000, 2);
      const r = await inProcess(kernel, audit, c, i * 1000);
      results[c.name] = { ...r, median: median(r.times), max: Math.max(...r.times) };
      progress(
        SCOPE,
        `${c.name}: ${r.status} ${r.reason}, median ${ms(median(r.times))} ms, max ${ms(Math.max(...r.times))} ms`,
      );
    }
    progress(SCOPE, 'starting canonry serve for the probe');
    const token = issueToken(join(dir, 'data'));
    const server = await serve(join(dir, 'data'));
    const probe = new Worker(PROBE, { eval: true, workerData: { url: server.url } });
    try {
      for (const c of cases) {
        if (!c.registered) continue;
        const res = await fetch(`${server.url}/v1/protocols`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(c.registered),
        });
        const { hash } = /** @type {{ hash?: string }} */ (await res.json());
        if (hash !== c.body.agentic_protocol) throw new Error(`${c.name}: registered as ${hash}`);
      }
      // Warm the server as the in-process kernel was: one untimed request of each case.
      for (const [i, c] of cases.entries()) {
        if (tooLarge(c)) continue;
        await fetch(`${server.url}/v1/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: fresh(c.body, 2e6 + i),
        }).then((r) => r.arrayBuffer());
      }
      for (const [i, c] of cases.entries()) {
        if (tooLarge(c)) {
          // Fastify answers 413 from the Content-Length and closes the connection mid-upload.
          Object.assign(results[c.name], {
            probeMax: 0,
            probeFailures: 0,
            httpMedian: 0,
            loopMax: 0,
          });
          progress(SCOPE, `${c.name} over HTTP: body over 1 MiB, refused from its length`);
          continue;
        }
        await server.loopMax(); // starts the server's count afresh
        const r = await overHttp(server.url, probe, c, 100_000 + i * 1000);
        const loopMax = await server.loopMax();
        Object.assign(results[c.name], {
          probeMax: r.probeMax,
          probeFailures: r.probeFailures,
          httpMedian: median(r.times),
          loopMax,
          ...(server.thread() ? { mainThread: server.thread() } : {}),
        });
        progress(
          SCOPE,
          `${c.name} over HTTP: longest event-loop block in the server ${ms(loopMax)} ms, longest /healthz wait ${ms(r.probeMax)} ms${r.probeFailures ? ` (${r.probeFailures} probe failures)` : ''}${server.thread() ? ` (main thread ${server.thread()} ms)` : ''}`,
        );
      }
    } catch (err) {
      process.stderr.write(`canonry serve said:\n${server.log()}\n`);
      throw err;
    } finally {
      probe.postMessage('stop');
      await server.stop();
    }
    const baseline = results[refundCase().name].median;
    const worst = Math.max(...cases.map((c) => results[c.name].max));
    const worstProbe = Math.max(...cases.map((c) => results[c.name].probeMax));
    const worstLoop = Math.max(...cases.map((c) => results[c.name].loopMax));
    const rows = cases.map((c) => {
      const r = results[c.name];
      return [
        c.name,
        `${r.status} ${r.reason}`,
        ms(r.median),
        ms(r.max),
        `${(r.median / baseline).toFixed(1)}×`,
        ms(r.loopMax),
        ms(r.probeMax),
      ];
    });
    const head = [
      'request',
      'answer (private reason)',
      'median ms',
      'max ms',
      'median ÷ refund',
      'server loop block ms',
      'longest /healthz wait ms',
    ];
    const met = worst <= TARGET_MS && worstLoop <= TARGET_MS;
    const summary = `Worst single request in process: **${ms(worst)} ms**; longest event-loop block in the server over HTTP: **${ms(worstLoop)} ms** (target ≤ ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'}); longest /healthz wait seen by a client thread on the same two cores: ${ms(worstProbe)} ms. Budgets: constraints ${EVALUATION_BUDGET.constraints} steps, rules ${EVALUATION_BUDGET.rules} steps. ${ROUNDS} in-process and ${HTTP_ROUNDS} HTTP requests per case, each with a protocol version never seen before.`;
    return {
      name: 'worst-case',
      title:
        'The worst protocols against the refund protocol: how long one request holds the event loop',
      tables: [`${table(head, rows)}\n\n${summary}`],
      data: {
        targetMs: TARGET_MS,
        worstMs: worst,
        worstProbeMs: worstProbe,
        worstLoopMs: worstLoop,
        met,
        budgets: EVALUATION_BUDGET,
        cases: Object.fromEntries(
          Object.entries(results).map(([name, r]) => [
            name,
            {
              status: r.status,
              reason: r.reason,
              medianMs: r.median,
              maxMs: r.max,
              probeMaxMs: r.probeMax,
              loopMaxMs: r.loopMax,
            },
          ]),
        ),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);
