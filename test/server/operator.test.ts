import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConfigInput,
  createCanonry,
  type ForwardConfig,
  resolveConfig,
} from '../../src/app/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { buildServer } from '../../src/server/index.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

/** A runtime on a fresh data directory and a server over it on loopback, with captured log lines. */
async function serve(config: { db?: string; corsOrigins?: string[] } = {}) {
  const { dir, cleanup } = tempDir();
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent', ...config });
  const log: string[] = [];
  const app = buildServer(runtime, {
    logLevel: 'info',
    logStream: { write: (line) => log.push(line) },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    runtime,
    log: () => log.map((line) => JSON.parse(line) as Record<string, unknown>),
    close: async () => {
      await app.close();
      // A test may have closed the store under the runtime: stop the rest of it all the same.
      await runtime.close().catch(() => undefined);
      cleanup();
    },
  };
}
type Live = Awaited<ReturnType<typeof serve>>;

function validate(url: string, amount: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      artifact: { amount },
      agentic_protocol: refundProtocol(),
      generation_metadata_hash: EMPTY_METADATA_HASH,
    }),
  });
}

/** The value of one sample in a Prometheus text exposition (undefined when absent). */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /readyz', () => {
  const opened: Live[] = [];
  afterEach(async () => {
    for (const live of opened.splice(0)) await live.close();
  });

  async function readyThenClosed(live: Live) {
    opened.push(live);
    const ready = await fetch(`${live.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, store: live.runtime.store.description });

    await live.runtime.store.close();
    const down = await fetch(`${live.url}/readyz`);
    expect(down.status).toBe(503);
    expect(((await down.json()) as any).error.code).toBe('STORE_UNAVAILABLE');
    // Liveness does not touch the store: the process is up, it just cannot serve writes.
    expect((await fetch(`${live.url}/healthz`)).status).toBe(200);
  }

  it('answers 200 while the SQLite store answers a query, 503 STORE_UNAVAILABLE once it is closed', async () => {
    await readyThenClosed(await serve());
  });

  it.runIf(postgresAvailable)('does the same on PostgreSQL', async () => {
    const pg = await freshPostgresSchema();
    try {
      await readyThenClosed(await serve({ db: pg.url }));
    } finally {
      await pg.drop();
    }
  });
});

describe('GET /metrics', () => {
  let live: Live;
  beforeAll(async () => {
    live = await serve();
  });
  afterAll(async () => {
    await live.close();
  });

  it('counts requests by route template, verdicts by class and journal appends by kind', async () => {
    expect((await validate(live.url, 20)).status).toBe(200);
    expect((await validate(live.url, 20)).status).toBe(200);
    expect((await validate(live.url, 'twenty')).status).toBe(400);
    expect((await fetch(`${live.url}/v1/protocols/sha256:${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${live.url}/v1/nowhere/at/all`)).status).toBe(404);
    await live.runtime.kernel.flushAudit();

    const res = await fetch(`${live.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const requests = 'canonry_http_requests_total';
    expect(sample(text, requests, { method: 'POST', route: '/v1/validate', status: '200' })).toBe(
      2,
    );
    expect(sample(text, requests, { method: 'POST', route: '/v1/validate', status: '400' })).toBe(
      1,
    );
    // The template, not the path, so ids in URLs do not multiply the series.
    expect(sample(text, requests, { route: '/v1/protocols/:hash', status: '404' })).toBe(1);
    expect(sample(text, requests, { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sample(text, 'canonry_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/validate',
        status: '200',
      }),
    ).toBe(2);
    expect(sample(text, 'canonry_kernel_verdicts_total', { class: 'CONFORMANT' })).toBe(2);
    expect(sample(text, 'canonry_kernel_verdicts_total', { class: 'INVALID_REQUEST' })).toBe(1);
    expect(sample(text, 'canonry_kernel_verdicts_total', { class: 'INTERPRETATION_DRIFT' })).toBe(
      0,
    );
    // Each verdict is journaled in the kernel's private audit, the records of a batch in few entries.
    const audited = await live.runtime.journal.read('kernel', { limit: 1000 });
    const records = audited.flatMap((e) => (e.body as { records: unknown[] }).records);
    expect(records).toHaveLength(3);
    expect(sample(text, 'canonry_journal_appends_total', { kind: 'kernel.verdicts' })).toBe(
      audited.length,
    );
    expect(sample(text, 'canonry_journal_commit_queue_depth')).toBe(0);
    // One process on SQLite: nothing is forwarded either way.
    expect(sample(text, 'canonry_journal_forwarded_total', { direction: 'sent' })).toBe(0);
    expect(sample(text, 'canonry_journal_forwarded_total', { direction: 'received' })).toBe(0);
    for (const reason of ['handshake', 'token', 'capacity'])
      expect(sample(text, 'canonry_journal_forward_refused_total', { reason })).toBe(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('keeps one registry per server, so two servers over one runtime count apart', async () => {
    const second = buildServer(live.runtime, { logLevel: 'silent' });
    try {
      const url = await second.listen({ port: 0, host: '127.0.0.1' });
      await fetch(`${url}/healthz`);
      const text = await (await fetch(`${url}/metrics`)).text();
      expect(sample(text, 'canonry_http_requests_total', { route: '/healthz' })).toBe(1);
      expect(
        sample(text, 'canonry_http_requests_total', { route: '/v1/validate' }),
      ).toBeUndefined();
      // The runtime's own counts are the same whichever server reads them.
      expect(sample(text, 'canonry_kernel_verdicts_total', { class: 'CONFORMANT' })).toBe(2);
    } finally {
      await second.close();
    }
  });
});

describe('request ids and request logs', () => {
  let live: Live;
  beforeAll(async () => {
    live = await serve();
  });
  afterAll(async () => {
    await live.close();
  });

  it('sends an x-request-id on every response, errors included, and logs each request at info under it', async () => {
    const ok = await fetch(`${live.url}/healthz`);
    const missing = await fetch(`${live.url}/v1/nowhere`);
    const denied = await fetch(`${live.url}/v1/projects/p1/objects`);
    expect(denied.status).toBe(401);
    // A URL the router cannot decode fails before any hook runs; it gets an id all the same.
    const undecodable = await fetch(`${live.url}/v1/protocols/%E0%A4%A`);
    expect(undecodable.status).toBe(400);
    expect(undecodable.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const ids = [ok, missing, denied].map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);

    const lines = live.log();
    for (const id of ids) {
      const mine = lines.filter((l) => l.reqId === id);
      expect(mine.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
      for (const line of mine) expect(line.level).toBeGreaterThanOrEqual(30);
    }
    // Every line written while a request was served carries its id.
    const requestLines = lines.filter((l) => l.req !== undefined || l.res !== undefined);
    expect(requestLines.length).toBeGreaterThanOrEqual(6);
    const answered = [...ids, undecodable.headers.get('x-request-id')];
    for (const line of requestLines) expect(answered).toContain(line.reqId);
    // The router's refusal is logged as any request is: in, and completed with its status.
    const refused = lines.filter((l) => l.reqId === undecodable.headers.get('x-request-id'));
    expect(
      refused.map((l) => [l.msg, (l.res as { statusCode?: number } | undefined)?.statusCode]),
    ).toEqual([
      ['incoming request', undefined],
      ['request completed', 400],
    ]);
  });

  it("keeps a caller's sane x-request-id and replaces one that is not", async () => {
    const kept = await validate(live.url, 20, { 'x-request-id': 'lb-7f3a.01:edge_2' });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.01:edge_2');
    expect(live.log().some((l) => l.reqId === 'lb-7f3a.01:edge_2')).toBe(true);
    for (const bad of ['a'.repeat(129), 'two words', 'line\tbreak', '{"json":1}']) {
      const res = await fetch(`${live.url}/healthz`, { headers: { 'x-request-id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('CORS', () => {
  const ORIGIN = 'https://board.example';
  let live: Live;
  beforeAll(async () => {
    live = await serve({ corsOrigins: [ORIGIN, 'http://localhost:5173'] });
  });
  afterAll(async () => {
    await live.close();
  });

  function preflight(url: string, origin: string) {
    return fetch(`${url}/v1/projects/p1/objects`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
  }

  it('answers a preflight from an allowed origin before auth, and refuses any other with 403', async () => {
    const allowed = await preflight(live.url, ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('GET');
    expect(allowed.headers.get('vary')).toContain('origin');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();

    const refused = await preflight(live.url, 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await refused.json()) as any).error.code).toBe('FORBIDDEN');
  });

  it('marks answers to allowed origins only', async () => {
    const mine = await fetch(`${live.url}/healthz`, { headers: { origin: ORIGIN } });
    expect(mine.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(mine.headers.get('access-control-expose-headers')).toContain('x-request-id');
    // A completing relay window's headers are readable from a browser too.
    expect(mine.headers.get('access-control-expose-headers')).toContain('CRP-Relay-Preservation');
    const theirs = await fetch(`${live.url}/healthz`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is off by default: no preflight answer, no CORS headers', async () => {
    const plain = await serve();
    try {
      const res = await preflight(plain.url, ORIGIN);
      // A route without OPTIONS: 405, naming what it answers.
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });

  it('forwards on loopback by default; CANONRY_FORWARD, _ADVERTISE and _TLS move it, encrypt it or turn it off', () => {
    expect(resolveConfig({}, {}).forward).toEqual({
      host: '127.0.0.1',
      port: 0,
      advertise: undefined,
      tls: 'auto',
    });
    expect(resolveConfig({}, { CANONRY_FORWARD_TLS: ' ON ' }).forward?.tls).toBe('on');
    expect(resolveConfig({ forwardTls: 'auto' }, { CANONRY_FORWARD_TLS: 'on' }).forward?.tls).toBe(
      'auto',
    );
    expect(resolveConfig({}, { CANONRY_FORWARD: 'off' }).forward).toBeNull();
    expect(
      resolveConfig(
        {},
        { CANONRY_FORWARD: '0.0.0.0:7071', CANONRY_FORWARD_ADVERTISE: 'a-1.internal:7071' },
      ).forward,
    ).toEqual({ host: '0.0.0.0', port: 7071, advertise: 'a-1.internal:7071', tls: 'auto' });
    expect(resolveConfig({}, { CANONRY_FORWARD: '[::1]:0' }).forward).toMatchObject({
      host: '::1',
      port: 0,
    });
    // A resolved configuration passed back in resolves to itself.
    const resolved = resolveConfig({}, { CANONRY_FORWARD: '[::1]:7072' });
    expect(resolveConfig(resolved, {}).forward).toEqual(resolved.forward);
    for (const env of [
      { CANONRY_FORWARD: '7071' },
      { CANONRY_FORWARD: 'host:70000' },
      { CANONRY_FORWARD: 'a b:1' },
      { CANONRY_FORWARD_ADVERTISE: 'a.internal:0' },
      { CANONRY_FORWARD_ADVERTISE: 'http://a.internal:7071' },
      // Never plain across hosts: there is no off.
      { CANONRY_FORWARD_TLS: 'off' },
      { CANONRY_FORWARD_TLS: 'yes' },
    ]) {
      expect(() => resolveConfig({}, env)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
    // A library caller's object with a value of another type: the same typed refusal.
    for (const forwardTls of [true, 1, {}] as unknown as string[]) {
      expect(() => resolveConfig({ forwardTls }, {})).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
    const forwards = [
      { port: 7071 },
      { host: 7, port: 7071 },
      { host: '127.0.0.1', port: '7071' },
      { host: '127.0.0.1', port: 1.5 },
      { host: '127.0.0.1', port: 70_000 },
      { host: '127.0.0.1', port: 7071, advertise: 7071 },
      7071,
      true,
    ];
    for (const forward of forwards as unknown as ForwardConfig[]) {
      expect(() => resolveConfig({ forward }, {})).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
    expect(() => resolveConfig({ forwardAdvertise: 7071 as unknown as string }, {})).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    // A well-formed object is taken as its text would be, an IPv6 host included.
    expect(
      resolveConfig({ forward: { host: '::1', port: 0 } as ForwardConfig }, {}).forward,
    ).toEqual({ host: '::1', port: 0, advertise: undefined, tls: 'auto' });
  });

  it('takes its origins from CANONRY_CORS_ORIGINS and refuses what is not an origin', () => {
    const env = { CANONRY_CORS_ORIGINS: ' https://a.example , http://localhost:8080,*' };
    expect(resolveConfig({}, env).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:8080',
      '*',
    ]);
    expect(resolveConfig({}, {}).corsOrigins).toEqual([]);
    for (const bad of [
      'https://a.example/path',
      'a.example',
      'ftp://a.example',
      'https://a.example/',
    ]) {
      expect(() => resolveConfig({}, { CANONRY_CORS_ORIGINS: bad })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it("refuses a library caller's setting of another type as INVALID_ARGUMENT, never a TypeError", () => {
    const keys: (keyof ConfigInput)[] = [
      'dataDir',
      'db',
      'port',
      'host',
      'logLevel',
      'http',
      'validateRateLimit',
      'validateWorkers',
      'eventStreams',
      'checkpoints',
      'verifyOnStart',
      'auditRetentionDays',
      'corsOrigins',
      'evolution',
      'forward',
      'forwardAdvertise',
      'forwardTls',
    ];
    const values: unknown[] = [-1, 1.5, Symbol('s'), 1n, [1], [Symbol('s')], () => 1, Number.NaN];
    const refused: string[] = [];
    for (const key of keys) {
      for (const [i, value] of values.entries()) {
        try {
          resolveConfig({ [key]: value } as ConfigInput, {});
        } catch (err) {
          if ((err as { code?: string }).code !== 'INVALID_ARGUMENT') {
            throw new Error(`${key} = values[${i}]: ${String(err)}`);
          }
          refused.push(key);
        }
      }
    }
    // Every setting refuses most of these (a number may be a valid port or count).
    for (const key of keys) expect(refused.filter((k) => k === key).length).toBeGreaterThan(3);
  });
});
