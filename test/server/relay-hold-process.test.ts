// A relay window must not hold `canonry serve`'s event loop for most of its duration: every other
// request (even `/healthz`, which reads nothing) waits behind a stretch of synchronous work, and on
// the embedded SQLite store every statement is synchronous. A separate client process asks
// `/healthz` back to back while windows of a large state (the relay bench's: 1,000 facts, 500
// decisions, 5,000 edges) complete over HTTP, and records the gap between consecutive answers.
//
// The bound, from the work: a window is a sequence of steps (intake, merge, verification, sealing,
// the DPE's measures, canon's batch — each item's gate, cascade and rehearsal — and the append with
// its projections, item by item), none of which is more than a small part of the whole. A 375-item
// window's canon batch alone was most of it, in one block. So the longest gap must be under half
// of the window's own duration on the same server at the same moment: a ratio, not milliseconds,
// so a slow or loaded machine stretches both sides alike. Before the window's work was split into
// turns the longest gap was ~0.9 of the window (the batch); now it is a step.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateState, setupContributions } from '../../bench/relay/lib/cso.js';
import { createCanonry } from '../../src/app/index.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

const PROJECT = 'holds';
const AGENT = 'agent-holds';
/** Sessions whose window is measured, after one that warms the server up (schemas, JIT). */
const MEASURED = 3;

/** The client: /healthz back to back; a phase name on stdin closes the last phase with its gaps. */
const PINGER = `
const url = process.argv[1] + '/healthz';
let phase = null, last = 0, started = 0, longest = 0, answered = 0;
process.stdin.setEncoding('utf8');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; ) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    const now = performance.now();
    if (phase !== null) {
      longest = Math.max(longest, now - last);
      process.stdout.write(JSON.stringify({ phase, answered, longest, duration: now - started }) + '\\n');
    }
    if (line === 'end') process.exit(0);
    phase = line; longest = 0; answered = 0; started = last = now;
  }
});
(async () => {
  for (;;) {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) { process.stderr.write('healthz ' + res.status + '\\n'); process.exit(3); }
    const now = performance.now();
    if (phase !== null) { longest = Math.max(longest, now - last); answered++; }
    last = now;
  }
})();
`;

interface Phase {
  readonly phase: string;
  readonly answered: number;
  readonly longest: number;
  readonly duration: number;
}

const temp = tempDir('canonry-relay-hold-');
let serve: ServeProcess | undefined;
let pinger: ChildProcess | undefined;
const state = generateState(7);
const setup = setupContributions(state);
const sessions: string[] = [];
let token = '';

beforeAll(async () => {
  // Windows 1–3 in process (the server then reads the state back from the projection's rows).
  const dataDir = join(temp.dir, 'data');
  const runtime = await createCanonry({ dataDir, logLevel: 'silent' });
  const agent = { id: AGENT, project: PROJECT, role: 'agent' as const };
  for (let s = 0; s < MEASURED + 1; s++) {
    const { session } = await runtime.relay.start(agent, {
      mode: 'AGENTIC',
      objective: 'Migrate the platform to the new region',
      remaining: ['move the ledger', 'move the search index', 'write the report'],
    });
    for (const c of setup.slice(0, -1)) {
      const w = await runtime.relay.completeWindow(agent, session.session_id, 'Setting up.', c);
      expect(w.status).toBe('relayed');
    }
    sessions.push(session.session_id);
  }
  token = (await runtime.tokens.create(PROJECT, AGENT, 'agent')).token;
  await runtime.close();
  serve = await startServe(dataDir);
}, 240_000);

afterAll(async () => {
  pinger?.kill('SIGKILL');
  await serve?.stop('SIGKILL');
  temp.cleanup();
});

describe('canonry serve while relay windows complete', () => {
  it('keeps answering /healthz: no gap is half of a window', async () => {
    const server = serve!;
    pinger = spawn(process.execPath, ['-e', PINGER, server.url], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const phases: Phase[] = [];
    let lines = '';
    pinger.stdout!.on('data', (d) => {
      lines += d;
      for (let i = lines.indexOf('\n'); i >= 0; i = lines.indexOf('\n')) {
        phases.push(JSON.parse(lines.slice(0, i)) as Phase);
        lines = lines.slice(i + 1);
      }
    });
    const exited = new Promise((done) => pinger!.on('exit', done));
    const mark = (name: string) => pinger!.stdin!.write(`${name}\n`);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}/v1/projects/${PROJECT}/relay/sessions/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { status?: string } };
    };
    mark('start');
    await new Promise((done) => setTimeout(done, 500));
    for (const [k, id] of sessions.entries()) {
      const name = k === 0 ? 'warm-up' : 'window';
      mark('prepare');
      expect((await post(`${id}/prepare`, {})).status).toBe(200);
      // The session's fourth window: 375 new items (250 facts, 125 decisions), each a canon note.
      mark(name);
      const done = await post(`${id}/windows`, {
        output: 'Setting up.',
        contribution: setup.at(-1),
      });
      mark('after');
      expect(done.status).toBe(200);
      expect(done.body.status).toBe('relayed');
    }
    mark('end');
    await exited;
    const windows = phases.filter((p) => p.phase === 'window');
    expect(windows).toHaveLength(MEASURED);
    for (const w of windows) {
      // The client was answered during the window: the ratio below measures holds, not silence.
      expect(w.answered).toBeGreaterThan(0);
      expect(
        w.longest / w.duration,
        `longest /healthz gap ${w.longest.toFixed(1)} ms of a ${w.duration.toFixed(1)} ms window (${w.answered} answers)`,
      ).toBeLessThan(0.5);
    }
  }, 240_000);
});
