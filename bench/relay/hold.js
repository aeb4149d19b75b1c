// @ts-check
/**
 * How long a relay window holds `canonry serve`'s event loop, seen from outside (CRP-030 windows
 * on a CSO of 1,000 facts, 500 decisions and 5,000 edges, the state of `window.js`).
 *
 * Sessions are built in process (their four setup windows pass the 256-item bound a contribution
 * has over HTTP), the runtime is closed, and `canonry serve` is started on the same SQLite data
 * directory. A separate client process asks `/healthz` back to back (each request as soon as the
 * last was answered) and records the gap between consecutive answers: with the server idle, a gap
 * is one round trip; while a window runs, the longest gap is the longest stretch the event loop
 * was held (plus a round trip). Phases, in turn for each session: `idle` (nothing else asked);
 * `cold`, the session's window 4 (a setup window of 375 items) completed over HTTP from a prior the
 * server reads back from the projection's rows, as after a restart; `prepare`, window 5 prepared;
 * and `windows`, window 5 completed over HTTP from the state the server sealed (a server's steady
 * state), with the restates-244 contribution and its raw answer, as `run` sends them.
 *
 * Not part of `bench/run.js`: `node bench/relay/hold.js [sessions]` after `npm run build`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createCanonry } from 'canonry/app';
import { tempDir } from '../lib/journal-data.js';
import { median, quantile } from '../lib/measure.js';
import { generateState, setupContributions, windowContribution } from './lib/cso.js';

const SESSIONS = Number(process.argv[2] ?? 21);
const PROJECT = 'bench';
const AGENT = 'agent-bench';
const OUTPUT = 'Window 5 continues the migration with the corrected figure.';
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;

/** The client: /healthz back to back; on a phase name from stdin, closes the last phase's gaps. */
const PINGER = `
const url = process.argv[1] + '/healthz';
let phase = null, last = 0, gaps = [], answered = 0;
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
process.stdin.setEncoding('utf8');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; ) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (phase !== null) out({ phase, answered, max: Math.max(0, ...gaps), gaps });
    if (line === 'end') process.exit(0);
    phase = line; gaps = []; answered = 0; last = performance.now();
  }
});
(async () => {
  for (;;) {
    const res = await fetch(url);
    await res.arrayBuffer();
    const now = performance.now();
    if (phase !== null) { gaps.push(now - last); answered++; }
    last = now;
  }
})();
`;

/**
 * Sessions built through their third window, in process; the agent's token.
 * @param {string} dataDir @param {ReturnType<typeof generateState>} state
 */
async function build(dataDir, state) {
  const runtime = await createCanonry({ dataDir, logLevel: 'silent' });
  const agent = { id: AGENT, project: PROJECT, role: /** @type {const} */ ('agent') };
  const ids = [];
  for (let s = 0; s < SESSIONS; s++) {
    const { session } = await runtime.relay.start(agent, {
      mode: 'AGENTIC',
      objective: 'Migrate the platform to the new region',
      remaining: ['move the ledger', 'move the search index', 'write the report'],
    });
    // The last setup window is completed by the server (below): it then holds the state it sealed.
    for (const c of setupContributions(state).slice(0, -1)) {
      const w = await runtime.relay.completeWindow(agent, session.session_id, 'Setting up.', c);
      if (w.status !== 'relayed') throw new Error(`setup window: ${w.status}`);
    }
    ids.push(session.session_id);
  }
  const { token } = await runtime.tokens.create(PROJECT, AGENT, 'agent');
  await runtime.close();
  return { ids, token };
}

/** `canonry serve` on the data directory. @param {string} dataDir */
function serve(dataDir) {
  // HOLD_NODE_ARGS: node flags for the server (e.g. `--cpu-prof --cpu-prof-dir=DIR` to profile it).
  const flags = (process.env.HOLD_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...flags, CLI, 'serve', '--port', '0', '--data', dataDir],
    {
      env: { ...process.env, CANONRY_LOG_LEVEL: 'warn' },
    },
  );
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

async function main() {
  const tmp = tempDir('relay-hold');
  const state = generateState(7);
  const { contribution } = windowContribution(state, {
    restate: 244,
    newFacts: 10,
    newDecisions: 5,
    seed: 11,
  });
  const body = JSON.stringify({
    output: OUTPUT,
    contribution,
    answers: [JSON.stringify({ output: OUTPUT, ...contribution })],
  });
  const dataDir = join(tmp.dir, 'data');
  const { ids, token } = await build(dataDir, state);
  const server = /** @type {{ child: import('node:child_process').ChildProcess, url: string }} */ (
    await serve(dataDir)
  );
  const pinger = spawn(process.execPath, ['-e', PINGER, server.url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  /** @type {any[]} */
  const phases = [];
  let lines = '';
  pinger.stdout?.on('data', (d) => {
    lines += d;
    for (let i = lines.indexOf('\n'); i >= 0; i = lines.indexOf('\n')) {
      phases.push(JSON.parse(lines.slice(0, i)));
      lines = lines.slice(i + 1);
    }
  });
  const phase = (/** @type {string} */ name) => pinger.stdin?.write(`${name}\n`);
  const pause = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
  await pause(1_000); // the pinger's first requests (connection, JIT) are not measured
  /** @type {number[]} */
  const windowMs = [];
  const post = async (/** @type {string} */ path, /** @type {string} */ payload) => {
    const res = await fetch(`${server.url}/v1/projects/${PROJECT}/relay/sessions/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: payload,
    });
    return { status: res.status, answer: await res.json() };
  };
  const lastSetup = JSON.stringify({
    output: 'Setting up.',
    contribution: setupContributions(state).at(-1),
  });
  for (const [k, id] of ids.entries()) {
    // The first session warms the server (schemas compiled, code optimised): not counted.
    const warm = k === 0 ? 'warm-' : '';
    // Window 4 over HTTP: its prior read back from the projection's rows, as after a restart.
    phase(`${warm}idle`);
    await pause(100);
    await post(`${id}/prepare`, '{}');
    phase(`${warm}cold`);
    const setup = await post(`${id}/windows`, lastSetup);
    if (setup.status !== 200) throw new Error(`window 4: ${setup.status}`);
    phase(`${warm}idle`);
    await pause(300);
    // Prepared first, as `run` does: the server then holds the session's last state.
    phase(`${warm}prepare`);
    const prepared = await post(`${id}/prepare`, '{}');
    if (prepared.status !== 200) throw new Error(`prepare: ${prepared.status}`);
    phase(`${warm}idle`);
    await pause(100);
    phase(`${warm}windows`);
    const t0 = performance.now();
    const { status, answer } = await post(`${id}/windows`, body);
    if (!warm) windowMs.push(performance.now() - t0);
    if (status !== 200 || answer.status !== 'relayed')
      throw new Error(`window: ${status} ${JSON.stringify(answer).slice(0, 300)}`);
  }
  phase('end');
  await new Promise((r) => pinger.on('exit', r));
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.on('exit', r));
  tmp.remove();
  const of = (/** @type {string} */ name) => phases.filter((p) => p.phase === name);
  const summary = (/** @type {any[]} */ ps) => {
    const maxes = ps.map((p) => p.max);
    const all = ps.flatMap((p) => p.gaps);
    return {
      windows: ps.length,
      longestGapMedian: +median(maxes).toFixed(2),
      longestGapMax: +Math.max(...maxes).toFixed(2),
      gapP50: +median(all).toFixed(3),
      gapP99: +quantile(all, 0.99).toFixed(2),
      answeredMedian: median(ps.map((p) => p.answered)),
    };
  };
  console.log(
    JSON.stringify(
      {
        sessions: SESSIONS,
        windowHttpMs: {
          median: +median(windowMs).toFixed(2),
          min: +Math.min(...windowMs).toFixed(2),
        },
        idle: summary(of('idle')),
        cold: summary(of('cold')),
        prepare: summary(of('prepare')),
        windows: summary(of('windows')),
        warmWindow: of('warm-windows').map((p) => +p.max.toFixed(1)),
        longestGapsDuringWindows: of('windows').map((p) => +p.max.toFixed(1)),
      },
      null,
      1,
    ),
  );
}

await main();
