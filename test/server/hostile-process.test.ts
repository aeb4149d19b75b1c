import { statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { call } from '../helpers/auth.js';
import { runCli } from '../helpers/cli.js';
import { hostileBody, refFanOut, worstCases } from '../helpers/hostile.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

/**
 * Defects only visible from outside the process (issue 11): a crash after the response was sent,
 * connections held open, file modes, what reaches the log. One `canonry serve` child on a data
 * directory of its own, with short timeouts so slow clients are cut quickly.
 */
let dir: string;
let cleanup: () => void;
let server: ServeProcess;
let auditor: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function validate(body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const data = join(dir, 'data');
  // A viewer token for the kernel's audit journal, issued before the server starts.
  const issued = await runCli([
    'tokens',
    'create',
    '--project',
    'kernel',
    '--principal',
    'auditor',
    '--role',
    'viewer',
    '--data',
    data,
    '--json',
  ]);
  expect(issued.code, issued.stderr).toBe(0);
  auditor = JSON.parse(issued.stdout).token;
  server = await startServe(data, {
    env: {
      CANONRY_LOG_LEVEL: 'debug',
      CANONRY_VALIDATE_RATE_LIMIT: 'off',
      CANONRY_REQUEST_TIMEOUT_MS: '2000',
      CANONRY_HEADERS_TIMEOUT_MS: '1000',
      CANONRY_KEEPALIVE_TIMEOUT_MS: '1000',
      CANONRY_IDLE_TIMEOUT_MS: '3000',
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  cleanup();
});

async function auditChainVerifies(): Promise<void> {
  const res = await call(server.url, 'GET', '/v1/projects/kernel/journal/verify', auditor);
  expect(res.status).toBe(200);
  expect(res.body.ok, JSON.stringify(res.body.broken)).toBe(true);
}

describe('canonry serve under hostile input', () => {
  it('survives the protocol whose audit record outgrew the journal entry limit', async () => {
    const res = await validate(refFanOut(16).body);
    expect(res.status).toBe(400);
    // The process died ~100 ms after answering; a second later it must still answer.
    await sleep(1_000);
    expect(server.alive()).toBe(true);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    await auditChainVerifies();
  });

  it('answers every worst-case protocol with a verdict or a typed refusal, the same twice', async () => {
    for (const hostile of worstCases()) {
      const first = await validate(hostile.body);
      const second = await validate(hostile.body);
      expect(first.status, hostile.name).toBeLessThan(500);
      expect(second.text, hostile.name).toBe(first.text);
      expect(server.alive()).toBe(true);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await auditChainVerifies();
  });

  it('stays up through batches of fuzzed and hostile requests, its audit chain verifying after each', async () => {
    const bodies = fc.oneof(
      { weight: 3, arbitrary: hostileBody() },
      { weight: 1, arbitrary: fc.jsonValue() },
      {
        weight: 1,
        arbitrary: fc.record({
          artifact: fc.jsonValue(),
          agentic_protocol: fc.jsonValue(),
          generation_metadata_hash: fc.constant(EMPTY_METADATA_HASH),
        }),
      },
    );
    for (const batch of fc.sample(fc.array(bodies, { minLength: 8, maxLength: 8 }), 6)) {
      const answers = await Promise.all(batch.map((b) => validate(b)));
      for (const answer of answers) expect(answer.status).toBeLessThan(500);
      expect(server.alive()).toBe(true);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await auditChainVerifies();
    }
  });

  it('closes connections whose body or headers never finish', async () => {
    const closed = (open: (socket: ReturnType<typeof connect>) => void) =>
      new Promise<string>((resolve, reject) => {
        const { port, hostname } = new URL(server.url);
        const socket = connect(Number(port), hostname, () => open(socket));
        let answer = '';
        socket.on('data', (d) => {
          answer += d;
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(answer));
        // Without server-side timeouts the socket stays open and this fails the test.
        setTimeout(() => {
          socket.destroy();
          reject(new Error('the server kept a stalled connection open'));
        }, 15_000).unref();
      });
    const slowBody = closed((socket) => {
      socket.write(
        'POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
      const drip = setInterval(() => socket.write(' '), 300);
      socket.on('close', () => clearInterval(drip));
    });
    const slowHeaders = closed((socket) => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => socket.write('X-Drip: 1\r\n'), 300);
      socket.on('close', () => clearInterval(drip));
    });
    const [body, headers] = await Promise.all([slowBody, slowHeaders]);
    expect(body).toMatch(/^HTTP\/1\.1 408|^$/);
    expect(headers).toMatch(/^HTTP\/1\.1 408|^$/);
    // An answer, when the socket can still take one, is canonry's envelope with a request id.
    for (const answer of [body, headers].filter((a) => a !== '')) {
      expect(answer).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe(
        'REQUEST_TIMEOUT',
      );
    }
    expect(server.alive()).toBe(true);
  });

  it('answers what is not HTTP, or headers past the bound, in its own envelope, then closes', async () => {
    const answered = (bytes: string) =>
      new Promise<string>((resolve) => {
        const { port, hostname } = new URL(server.url);
        const socket = connect(Number(port), hostname, () => socket.write(bytes));
        let answer = '';
        socket.on('data', (d) => {
          answer += d;
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(answer));
      });
    const cases = [
      ['GARBAGE\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      [
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
        431,
        'HEADERS_TOO_LARGE',
      ],
      [
        'GET /healthz HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\u0000b\r\n\r\n',
        400,
        'MALFORMED_REQUEST',
      ],
    ] as const;
    for (const [bytes, status, code] of cases) {
      const answer = await answered(bytes);
      expect(answer.startsWith(`HTTP/1.1 ${status} `), answer.slice(0, 80)).toBe(true);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe(code);
      expect(answer).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
    }
    expect(server.alive()).toBe(true);
  });

  it('keeps its database, WAL and data directory private', async () => {
    // A write, so the WAL and shared-memory files exist.
    await validate(refFanOut(4).body);
    const data = join(dir, 'data');
    expect(statSync(data).mode & 0o777).toBe(0o700);
    for (const file of ['canonry.db', 'canonry.db-wal', 'canonry.db-shm', 'store.json']) {
      expect(statSync(join(data, file)).mode & 0o777, file).toBe(0o600);
    }
  });

  it('warns at start that its auto-created root is a development root, and says so in health', async () => {
    expect(server.stderr()).toContain('canonry: warning: development root');
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, any>;
    expect(health.trust.development).toBe(true);
    const trust = (await (await fetch(`${server.url}/v1/trust`)).json()) as Record<string, any>;
    expect(trust.development_root).toBe(true);
  });

  it('logs request URLs without their query strings, even at debug', async () => {
    const secret = 'cnr_leaked-through-a-query-string';
    await fetch(`${server.url}/healthz?token=${secret}`);
    await fetch(`${server.url}/v1/trust?x=${secret}`);
    await sleep(200);
    expect(server.stderr()).toContain('/healthz?[redacted]');
    expect(server.stderr()).not.toContain(secret);
  });
});

describe('canonry serve start-up errors are typed', () => {
  it('a port another server holds is ADDRESS_UNAVAILABLE, not INTERNAL', async () => {
    const { port } = new URL(server.url);
    const res = await runCli(['serve', '--port', port, '--data', join(dir, 'second')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('canonry: ADDRESS_UNAVAILABLE:');
    expect(res.stderr).toContain(`:${port} is already in use`);
  });
});

describe('canonry serve rate-limits the public evaluation endpoint', () => {
  let limited: ServeProcess;
  beforeAll(async () => {
    limited = await startServe(join(dir, 'limited'), {
      env: { CANONRY_VALIDATE_RATE_LIMIT: '5/1m' },
    });
  }, 60_000);
  afterAll(() => limited?.stop());

  it('answers 429 RATE_LIMITED with Retry-After past the limit, in the §6 envelope', async () => {
    const send = () =>
      fetch(`${limited.url}/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(refFanOut(2).body),
      });
    for (let i = 0; i < 5; i++) expect((await send()).status).toBe(400);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const envelope = (await refused.json()) as Record<string, any>;
    expect(envelope.status).toBe('REJECTED');
    expect(envelope.error.failure_code).toBe('RATE_LIMITED');
    // Other routes are not limited.
    expect((await fetch(`${limited.url}/healthz`)).status).toBe(200);
  });
});
