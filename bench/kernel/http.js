// @ts-check
/**
 * POST /v1/validate over HTTP: the real server (`canonry serve`, a child process) against the HTTP
 * signing floor — a Fastify route that parses the same body, signs as many bytes as an event with
 * Ed25519 once per request and returns a precomputed body of the same bytes
 * (signing-floor-server.js) — and, for reference, a bare Fastify route that does not sign
 * (bare-server.js). Each server is a child process; the load generator (autocannon) runs here.
 * `--duration N --warmup N` shorten a smoke run (the full run: 10 s after 3 s).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { EMPTY_METADATA_HASH } from 'canonry/kernel';
import { documentBytes } from 'canonry/trust';
import { fmtInt, progress } from '../lib/measure.js';
import { expectedLabel, refundArtifacts, refundProtocol } from '../lib/refund.js';
import { fmtRatio, runIfMain, table } from '../lib/report.js';

const SCOPE = 'kernel/http';
/** canonry ÷ the HTTP signing floor (issue 13; ≥ 0.6 × a bare route was shown out of reach). */
export const TARGET = 0.8;
const flag = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const LOAD = {
  connections: 10,
  pipelining: 1,
  warmup: flag('--warmup', 3),
  duration: flag('--duration', 10),
};
const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const FLOOR = fileURLToPath(new URL('./signing-floor-server.js', import.meta.url));
/** `CANONRY_BENCH_PROFILE=<dir>` writes a --cpu-prof profile of each server into <dir>. */
const PROFILE = process.env.CANONRY_BENCH_PROFILE
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CANONRY_BENCH_PROFILE}`]
  : [];

/**
 * Starts `node <args>` and resolves once it prints a URL on stderr.
 * @param {string[]} args @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 */
function startServer(args, env = process.env) {
  const child = spawn(process.execPath, [...PROFILE, ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  return new Promise((ready, failed) => {
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const url = /listening on (http:\/\/[^\s]+)/.exec(err)?.[1];
      const stop = async () => {
        child.kill('SIGTERM');
        await exited;
      };
      if (url) ready({ url, pid: /** @type {number} */ (child.pid), stop });
    });
    child.once('exit', (code) => failed(new Error(`${args.join(' ')} exited (${code}): ${err}`)));
  });
}

/** An editor's token of the bench project, issued with the CLI. @param {string} data */
function issueToken(data) {
  const out = execFileSync(
    process.execPath,
    [CLI, 'tokens', 'create', '--project', 'bench', '--principal', 'bench', '--role', 'editor'],
    { env: { ...process.env, CANONRY_DATA: data }, encoding: 'utf8' },
  );
  return out.split('\n')[0] ?? '';
}

/** CPU seconds (user + system) a process has used so far, from /proc; NaN where there is no /proc. @param {number} pid */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return Number.NaN;
  }
}

/**
 * A warm-up run (discarded), then the measured run; both with the same settings. Also reports how
 * busy the server and the load generator were (% of one core), to show which side saturated.
 * @param {string} name @param {{ url: string, pid: number }} server @param {string[]} bodies
 */
async function load(name, { url, pid }, bodies) {
  const requests = bodies.map((body) => ({
    method: /** @type {const} */ ('POST'),
    path: '/v1/validate',
    headers: { 'content-type': 'application/json' },
    body,
  }));
  const settings = { url, connections: LOAD.connections, pipelining: LOAD.pipelining, requests };
  progress(SCOPE, `${name}: warming up for ${LOAD.warmup} s`);
  await autocannon({ ...settings, duration: LOAD.warmup });
  progress(SCOPE, `${name}: measuring for ${LOAD.duration} s`);
  const [server0, client0, t0] = [cpuSeconds(pid), process.cpuUsage(), performance.now()];
  const r = await autocannon({ ...settings, duration: LOAD.duration });
  const seconds = (performance.now() - t0) / 1000;
  const client = process.cpuUsage(client0);
  const result = {
    reqPerSec: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    serverCpu: Math.round((100 * (cpuSeconds(pid) - server0)) / seconds),
    loadGeneratorCpu: Math.round((client.user + client.system) / 1e4 / seconds),
  };
  progress(
    SCOPE,
    `${name}: ${fmtInt(result.reqPerSec)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms (CPU: server ${result.serverCpu} %, autocannon ${result.loadGeneratorCpu} %)`,
  );
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result;
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-http-'));
  try {
    // Registering a protocol needs an editor's token: issue one the way an operator would.
    const token = issueToken(join(dir, 'data'));
    progress(SCOPE, 'starting canonry serve (child process)');
    // The rate limiter runs on every request but, this high, never refuses one: its cost is measured.
    const env = {
      ...process.env,
      CANONRY_LOG_LEVEL: 'silent',
      CANONRY_VALIDATE_RATE_LIMIT: '999999999/1m',
    };
    const canonry = await startServer(
      [CLI, 'serve', '--port', '0', '--data', join(dir, 'data')],
      env,
    );
    /** @type {any} */
    let measured;
    /** @type {Buffer} */
    let typical;
    /** @type {string[]} */
    let bodies;
    try {
      const registered = await fetch(`${canonry.url}/v1/protocols`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(refundProtocol()),
      });
      const { hash } = /** @type {{ hash: string }} */ (await registered.json());
      progress(SCOPE, `registered the refund protocol as ${hash}`);
      const artifacts = refundArtifacts();
      bodies = artifacts.map((artifact) =>
        JSON.stringify({
          artifact,
          agentic_protocol: hash,
          generation_metadata_hash: EMPTY_METADATA_HASH,
        }),
      );

      progress(SCOPE, `checking canonry's answer to all ${bodies.length} request bodies`);
      typical = Buffer.alloc(0);
      for (const [i, body] of bodies.entries()) {
        const res = await fetch(`${canonry.url}/v1/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const bytes = Buffer.from(await res.arrayBuffer());
        const label = JSON.parse(bytes.toString('utf8')).data?.label;
        const want = expectedLabel(/** @type {{ amount: number }} */ (artifacts[i]).amount);
        if (res.status !== 200 || label !== want)
          throw new Error(`request ${i}: ${res.status} ${label}, expected 200 ${want}`);
        if (i === 1) typical = bytes;
      }
      progress(SCOPE, `typical 200 response: ${typical.length} bytes`);
      measured = { canonry: await load('canonry POST /v1/validate', canonry, bodies) };
    } finally {
      await canonry.stop();
    }

    const responseFile = join(dir, 'response.json');
    writeFileSync(responseFile, typical);
    // The floor signs as many bytes as canonry signed for this response's event.
    const { signature: _signature, ...unsigned } = JSON.parse(typical.toString('utf8')).attestation;
    const signedLength = documentBytes(unsigned).length;
    progress(
      SCOPE,
      `starting the signing floor (child process; ${signedLength} bytes signed a request)`,
    );
    const floor = await startServer([FLOOR, responseFile, String(signedLength)]);
    try {
      measured.floor = await load(
        'signing floor: parse, Ed25519 sign, precomputed body',
        floor,
        bodies,
      );
    } finally {
      await floor.stop();
    }
    progress(SCOPE, 'starting the signing floor with its signature on the thread pool (reference)');
    const pooled = await startServer([FLOOR, responseFile, String(signedLength), '--pool']);
    try {
      measured.pooledFloor = await load(
        'signing floor, signature on the thread pool (reference)',
        pooled,
        bodies,
      );
    } finally {
      await pooled.stop();
    }
    progress(SCOPE, 'starting the bare Fastify server (child process)');
    const bare = await startServer([BARE, responseFile]);
    try {
      measured.bare = await load('bare Fastify, precomputed body', bare, bodies);
    } finally {
      await bare.stop();
    }

    const r = measured.canonry.reqPerSec / measured.floor.reqPerSec;
    const rBare = measured.canonry.reqPerSec / measured.bare.reqPerSec;
    progress(
      SCOPE,
      `ratio canonry/signing floor ${fmtRatio(r)} (target ≥ ${TARGET}); canonry/bare ${fmtRatio(rBare)}`,
    );
    const row = (
      /** @type {string} */ name,
      /** @type {any} */ m,
      /** @type {string} */ rc,
      /** @type {string} */ rb,
    ) => [
      name,
      fmtInt(m.reqPerSec),
      m.p50,
      m.p99,
      `${m.serverCpu} % / ${m.loadGeneratorCpu} %`,
      rc,
      rb,
    ];
    const head = [
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU server / autocannon',
      'ratio to the signing floor',
      'ratio to bare',
    ];
    const rows = [
      row(
        'canonry serve, POST /v1/validate (protocol by hash)',
        measured.canonry,
        `**${fmtRatio(r)}** (target ≥ ${TARGET}: ${r >= TARGET ? 'met' : 'NOT met'})`,
        fmtRatio(rBare),
      ),
      row(
        `signing floor: Fastify, same body in, Ed25519 over ${signedLength} bytes, the same ${typical.length}-byte body out`,
        measured.floor,
        '1.00×',
        fmtRatio(measured.floor.reqPerSec / measured.bare.reqPerSec),
      ),
      row(
        'the same floor with its signature on the thread pool, as canonry signs (reference)',
        measured.pooledFloor,
        fmtRatio(measured.pooledFloor.reqPerSec / measured.floor.reqPerSec),
        fmtRatio(measured.pooledFloor.reqPerSec / measured.bare.reqPerSec),
      ),
      row(
        `bare Fastify, same body in, precomputed ${typical.length}-byte body out`,
        measured.bare,
        fmtRatio(measured.bare.reqPerSec / measured.floor.reqPerSec),
        '1.00×',
      ),
    ];
    const settings = `autocannon: ${LOAD.connections} connections, pipelining ${LOAD.pipelining}, ${LOAD.duration} s measured after ${LOAD.warmup} s warm-up, ${bodies.length} request bodies cycled, the four servers one after the other.`;
    return {
      name: 'http',
      title: 'POST /v1/validate over HTTP vs the HTTP signing floor',
      tables: [`${table(head, rows)}\n\n${settings}`],
      data: {
        ...measured,
        ratio: r,
        ratioToBare: rBare,
        ratioToPooledFloor: measured.canonry.reqPerSec / measured.pooledFloor.reqPerSec,
        signedBytes: signedLength,
        target: TARGET,
        met: r >= TARGET,
        responseBytes: typical.length,
        load: LOAD,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);
