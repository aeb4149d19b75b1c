import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry, JournalProtocolStore, resolveConfig } from '../../src/app/index.js';
import { CanonryError } from '../../src/core/index.js';
import {
  EMPTY_METADATA_HASH,
  ProtocolRegistry,
  rejectionEnvelope,
} from '../../src/kernel/index.js';
import { buildServer, ValidatePool, validatePoolOf } from '../../src/server/index.js';
import { parseJsonBytes } from '../../src/server/json-body.js';
import { tokensFor } from '../helpers/auth.js';
import { liveServer, refundProtocol, tempDir } from '../helpers/runtime.js';

/**
 * `POST /v1/validate` decided on the evaluation threads (issue 11): over real HTTP, every answer and
 * every event must be byte-identical to `kernel.validate` in process, a thread that dies answers 503
 * and is replaced, and closing the server stops the threads.
 */
type Live = Awaited<ReturnType<typeof liveServer>>;
let live: Live;
let ledgerHash: string;
let storedOnlyHash: string;

/** A protocol whose artifacts may be large: amount decides, `lines` pads the body. */
const ledger = {
  slug: 'ledger.guard',
  version: '1.0',
  constraints: {
    type: 'object',
    required: ['amount'],
    additionalProperties: false,
    properties: { amount: { type: 'number' }, lines: { type: 'array', items: { type: 'string' } } },
  },
  labels: ['SMALL', 'LARGE'],
  rules: [
    { label: 'SMALL', condition: { '<=': [{ var: 'amount' }, 50] } },
    { label: 'LARGE', condition: { '>': [{ var: 'amount' }, 50] } },
  ],
};
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} ${'·'.repeat(40)}`);

beforeAll(async () => {
  live = await liveServer();
  const { editor } = await tokensFor(live.runtime, 'pool', { editor: 'editor' });
  const res = await fetch(`${live.url}/v1/protocols`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${editor}` },
    body: JSON.stringify(ledger),
  });
  expect(res.status).toBe(201);
  ledgerHash = ((await res.json()) as { hash: string }).hash;
  // Registered through another registry on the same database: this server's registry has never
  // compiled it, so the thread's question is answered from the store.
  const other = new ProtocolRegistry(new JournalProtocolStore(live.runtime.journal, 1_000));
  const stored = await other.register(
    { ...ledger, version: '2.0' },
    {
      project: 'pool',
      principal: 'editor',
      role: 'editor',
    },
  );
  storedOnlyHash = stored.protocol.hash;
});
afterAll(async () => {
  await live?.close();
});

async function postRaw(raw: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${live.url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw,
  });
  return { status: res.status, text: await res.text() };
}

/** What the same body gives in process: `kernel.validate`, or the §6 rejection it throws. */
async function inProcess(raw: string): Promise<{ status: number; text: string }> {
  try {
    const evaluation = await live.runtime.kernel.validate(parseJsonBytes(Buffer.from(raw)));
    return { status: evaluation.httpStatus, text: JSON.stringify(evaluation.envelope) };
  } catch (err) {
    if (!(err instanceof CanonryError)) throw err;
    return { status: err.status, text: JSON.stringify(rejectionEnvelope(err.code, err.message)) };
  }
}

const body = (artifact: unknown, protocol: unknown, meta: unknown = EMPTY_METADATA_HASH) =>
  JSON.stringify({ artifact, agentic_protocol: protocol, generation_metadata_hash: meta });

describe('POST /v1/validate on the evaluation threads', () => {
  const table: [string, () => string, number][] = [
    ['inline, conformant', () => body({ amount: 20 }, refundProtocol()), 200],
    ['inline, conformant, other label', () => body({ amount: 640 }, refundProtocol()), 200],
    ['inline, constraints fail', () => body({ amount: '20' }, refundProtocol()), 400],
    [
      'inline, drift (no rule matches)',
      () =>
        body(
          { amount: 5000 },
          {
            ...refundProtocol(),
            rules: [{ label: 'BLOCK', condition: { '<': [{ var: 'amount' }, 0] } }],
          },
        ),
      422,
    ],
    [
      'inline, other metadata hash',
      () => body({ amount: 1 }, refundProtocol(), `sha256:${'ab'.repeat(32)}`),
      200,
    ],
    ['by hash, small (decided in process)', () => body({ amount: 7 }, ledgerHash), 200],
    [
      'by hash, large (decided on a thread)',
      () => body({ amount: 70, lines: lines(400) }, ledgerHash),
      200,
    ],
    [
      'by hash, large, constraints fail',
      () => body({ amount: 70, lines: [...lines(400), 7] }, ledgerHash),
      400,
    ],
    [
      'by hash, never compiled by this server (from the store)',
      () => body({ amount: 3, lines: lines(400) }, storedOnlyHash),
      200,
    ],
    ['by hash, unknown', () => body({ amount: 1 }, `sha256:${'0'.repeat(64)}`), 404],
    [
      'by hash, unknown, large',
      () => body({ amount: 1, lines: lines(400) }, `sha256:${'1'.repeat(64)}`),
      404,
    ],
    ['malformed protocol hash', () => body({ amount: 1 }, 'sha256:xyz'), 400],
    ['bad metadata hash', () => body({ amount: 1 }, refundProtocol(), 'md5:00'), 400],
    [
      'invalid inline protocol (pointer in the message)',
      () =>
        body({ amount: 1 }, { ...refundProtocol(), rules: [{ label: 'NOPE', condition: true }] }),
      400,
    ],
    [
      'unknown field',
      () => JSON.stringify({ ...JSON.parse(body({ amount: 1 }, ledgerHash)), x: 1 }),
      400,
    ],
    ['missing field', () => JSON.stringify({ artifact: 1, agentic_protocol: ledgerHash }), 400],
    ['not an object', () => '[1,2,3]', 400],
    ['protocol as a number', () => body({ amount: 1 }, 7), 400],
  ];
  for (const [what, make, status] of table) {
    it(`${what}: the same status and bytes as kernel.validate`, async () => {
      const raw = make();
      const http = await postRaw(raw);
      const local = await inProcess(raw);
      expect(http.status).toBe(status);
      expect(http.status).toBe(local.status);
      expect(http.text).toBe(local.text);
    });
  }

  it('bodies the parser refuses get the same typed rejection from a thread or in process', async () => {
    const big = body({ amount: 1, lines: lines(400) }, refundProtocol());
    for (const [raw, status, code] of [
      [`${big.slice(0, -1)},`, 400, 'MALFORMED_BODY'],
      // A member named twice: JSON.parse would keep the last, a SMALL verdict (a thread, then in
      // process), another reader the first.
      [
        body({ amount: 1, lines: lines(400) }, ledgerHash).replace(
          '{"amount":1',
          '{"amount":99,"\\u0061mount":1',
        ),
        400,
        'MALFORMED_BODY',
      ],
      [
        body({ amount: 7 }, ledgerHash).replace('{"amount":7', '{"amount":70,"amount":7'),
        400,
        'MALFORMED_BODY',
      ],
      [
        `{"artifact":${'['.repeat(100)}${']'.repeat(100)},"pad":"${'x'.repeat(5000)}"}`,
        400,
        'NESTING_TOO_DEEP',
      ],
      [
        body(
          Array.from({ length: 40_000 }, () => 0),
          refundProtocol(),
        ),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
    ] as const) {
      const http = await postRaw(raw);
      expect(http.status).toBe(status);
      if (/"amount":(99|70),/.test(raw)) {
        expect(JSON.parse(http.text).error.message).toBe('an object names member "amount" twice');
      }
      expect(JSON.parse(http.text)).toEqual(
        rejectionEnvelope(code, JSON.parse(http.text).error.message),
      );
      let thrown: unknown;
      try {
        parseJsonBytes(Buffer.from(raw));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(CanonryError);
      expect(JSON.parse(http.text).error).toEqual({
        failure_code: code,
        message: (thrown as CanonryError).message,
      });
    }
  });

  it('concurrent requests for a protocol the thread lacks share one question and all get its answer', async () => {
    const registry = live.runtime.kernel.registry;
    const source = registry.source.bind(registry);
    const asked: string[] = [];
    registry.source = async (hash) => {
      asked.push(String(hash));
      return source(hash);
    };
    try {
      const fresh = await new ProtocolRegistry(
        new JournalProtocolStore(live.runtime.journal, 1_000),
      ).register(
        { ...ledger, version: '5.0' },
        { project: 'pool', principal: 'editor', role: 'editor' },
      );
      const raws = Array.from({ length: 12 }, (_, i) =>
        body({ amount: i * 10, lines: lines(400) }, fresh.protocol.hash),
      );
      const answers = await Promise.all(raws.map(postRaw));
      expect(asked).toEqual([fresh.protocol.hash]);
      for (const [i, raw] of raws.entries()) {
        expect(answers[i]!.status).toBe(200);
        expect(answers[i]!.text).toBe((await inProcess(raw)).text);
      }
    } finally {
      registry.source = source;
    }
  });

  it('a decision from a thread is audited exactly as one made in process', async () => {
    const raw = body({ amount: 70, lines: [...lines(400), 7] }, ledgerHash);
    await postRaw(raw);
    await inProcess(raw);
    await live.runtime.kernel.flushAudit();
    const head = await live.runtime.journal.head('kernel');
    const after = Math.max(0, head.seq - 4);
    const audit = await live.runtime.journal.read('kernel', { after, limit: 4 });
    // The last two records of the audit, whichever entries their batches went in.
    const records = audit.flatMap(
      (e) => (e.body as { records: Record<string, unknown>[] }).records,
    );
    const [viaThread, viaKernel] = records.slice(-2).map((r) => {
      const { at: _at, ...rest } = r;
      return rest;
    });
    expect(viaThread).toMatchObject({ class: 'INVALID_REQUEST', protocol_slug: 'ledger.guard' });
    expect(viaThread).toEqual(viaKernel);
  });

  it('a thread that dies answers 503 EVALUATOR_UNAVAILABLE, and the next request is served', async () => {
    const pool = validatePoolOf(live.app);
    expect(pool).toBeDefined();
    const registry = live.runtime.kernel.registry;
    const source = registry.source.bind(registry);
    // The thread is waiting for this answer, so it is mid-request when it is stopped.
    registry.source = async (hash) => {
      await pool!.terminate();
      return source(hash);
    };
    const raw = body({ amount: 8, lines: lines(400) }, { ...ledger, version: '3.0' });
    const unknownToThread = body({ amount: 8, lines: lines(400) }, storedOnlyHash);
    let crashed: { status: number; text: string };
    try {
      // A fresh thread has none of the registered protocols, so it asks.
      await pool!.terminate();
      crashed = await postRaw(unknownToThread);
    } finally {
      registry.source = source;
    }
    expect(crashed.status).toBe(503);
    expect(JSON.parse(crashed.text)).toEqual(
      rejectionEnvelope('EVALUATOR_UNAVAILABLE', JSON.parse(crashed.text).error.message),
    );
    const again = await postRaw(unknownToThread);
    expect(again.status).toBe(200);
    expect(again.text).toBe((await inProcess(unknownToThread)).text);
    const inline = await postRaw(raw);
    expect(inline.status).toBe(200);
    expect(pool!.running).toBe(1);
  });

  it('closing the server stops its threads; the pool then refuses typed', async () => {
    const other = await liveServer();
    const pool = validatePoolOf(other.app)!;
    const res = await fetch(`${other.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body({ amount: 20 }, refundProtocol()),
    });
    expect(res.status).toBe(200);
    expect(pool.running).toBe(1);
    await other.close();
    expect(pool.running).toBe(0);
    await expect(pool.decide(Buffer.from('{}'))).rejects.toMatchObject({
      code: 'EVALUATOR_UNAVAILABLE',
    });
  });
});

describe('how many evaluation threads', () => {
  it('comes from config or CANONRY_VALIDATE_WORKERS, 0–64, default 1; anything else is INVALID_ARGUMENT', () => {
    expect(resolveConfig({}, {}).validateWorkers).toBe(1);
    expect(resolveConfig({ validateWorkers: '3' }, {}).validateWorkers).toBe(3);
    expect(resolveConfig({}, { CANONRY_VALIDATE_WORKERS: '0' }).validateWorkers).toBe(0);
    for (const bad of ['-1', '65', 'two', '1.5', '']) {
      expect(() => resolveConfig({}, { CANONRY_VALIDATE_WORKERS: bad })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('with 0 threads every request is decided in the server thread, with the same bytes', async () => {
    const { dir, cleanup } = tempDir();
    const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent', validateWorkers: 0 });
    const app = buildServer(runtime, { logLevel: 'silent' });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      expect(validatePoolOf(app)).toBeUndefined();
      const raw = body({ amount: 70, lines: lines(400) }, { ...ledger, version: '4.0' });
      const res = await fetch(`${url}/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      const evaluation = await runtime.kernel.validate(JSON.parse(raw));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(JSON.stringify(evaluation.envelope));
    } finally {
      await app.close();
      await runtime.close();
      cleanup();
    }
  });
});

describe('a thread that never answers', () => {
  it('is stopped by the watchdog: its request is 503-typed, the next one is served', async () => {
    const failures: unknown[] = [];
    const pool = new ValidatePool({
      size: 1,
      // The registry never answers, so the thread waits on this request forever.
      source: () => new Promise(() => undefined),
      stuckMs: 300,
      onThreadError: (err) => failures.push(err),
    });
    try {
      const waiting = body({ amount: 1 }, `sha256:${'2'.repeat(64)}`);
      await expect(pool.decide(Buffer.from(waiting))).rejects.toMatchObject({
        code: 'EVALUATOR_UNAVAILABLE',
      });
      expect(failures).toHaveLength(1);
      const decision = await pool.decide(Buffer.from(body({ amount: 20 }, refundProtocol())));
      expect(decision.verdict).toMatchObject({ class: 'CONFORMANT', label: 'AUTO_APPROVE' });
      expect(pool.running).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
