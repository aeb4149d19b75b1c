import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { verifyProject } from '../../src/journal/index.js';
import { EMPTY_METADATA_HASH, verifyConformanceEvent } from '../../src/kernel/index.js';
import { tokensFor } from '../helpers/auth.js';
import { hostileBody } from '../helpers/hostile.js';
import { liveServer, refundProtocol } from '../helpers/runtime.js';

type Live = Awaited<ReturnType<typeof liveServer>>;
let live: Live;

beforeAll(async () => {
  live = await liveServer();
});
afterAll(async () => {
  await live.close();
});

async function post(body: unknown, init: { contentType?: string; raw?: string } = {}) {
  const res = await fetch(`${live.url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': init.contentType ?? 'application/json' },
    body: init.raw ?? JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as Record<string, any> };
}

function request(artifact: unknown, protocol: unknown = refundProtocol()) {
  return { artifact, agentic_protocol: protocol, generation_metadata_hash: EMPTY_METADATA_HASH };
}

const ENVELOPE_KEYS = ['attestation', 'data', 'error', 'status'];

describe('TCP/AP conformance clauses over HTTP', () => {
  it('C-1: the same (artifact, protocol) gives a byte-identical response, whatever the key order', async () => {
    const a = await post(request({ amount: 20 }));
    const b = await post(request({ amount: 20 }));
    const protocol = refundProtocol();
    const reordered = Object.fromEntries(Object.entries(protocol).reverse());
    const c = await post({
      generation_metadata_hash: EMPTY_METADATA_HASH,
      agentic_protocol: reordered,
      artifact: { amount: 20 },
    });
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(c.text).toBe(a.text);
  });

  it('C-2: an artifact that satisfies the constraints resolves to one label or to drift, never else', async () => {
    const noCatchAll = {
      ...refundProtocol(),
      rules: [{ label: 'AUTO_APPROVE', condition: { '<=': [{ var: 'amount' }, 50] } }],
    };
    for (const amount of [-1, 0, 20, 50, 50.5, 999, 1e9]) {
      const res = await post(request({ amount }, noCatchAll));
      if (amount <= 50) {
        expect(res.status).toBe(200);
        expect(res.json.data).toEqual({ conformant: true, label: 'AUTO_APPROVE' });
      } else {
        expect(res.status).toBe(422);
        expect(res.json.error.failure_code).toBe('INTERPRETATION_DRIFT');
        expect(res.json.data).toEqual({ conformant: false, label: null });
        expect(res.json.attestation).toBeNull();
      }
    }
  });

  it('C-3: artifacts failing the constraints are INVALID_REQUEST (400)', async () => {
    for (const artifact of [
      { amount: 20, note: 'x' },
      { amount: '20' },
      {},
      [20],
      'amount',
      null,
    ]) {
      const res = await post(request(artifact));
      expect(res.status).toBe(400);
      expect(res.json.status).toBe('EVALUATED');
      expect(res.json.error.failure_code).toBe('INVALID_REQUEST');
      expect(res.json.attestation).toBeNull();
    }
  });

  it('C-4: only declared labels, and no reasoning in the response', async () => {
    const labels = refundProtocol().labels as string[];
    for (const amount of [1, 75, 5000]) {
      const res = await post(request({ amount }));
      expect(Object.keys(res.json).sort()).toEqual(ENVELOPE_KEYS);
      expect(labels).toContain(res.json.data.label);
    }
    const invalid = await post(request({ amount: 'twenty' }));
    expect(Object.keys(invalid.json.error).sort()).toEqual(['failure_code', 'message']);
    expect(invalid.text).not.toMatch(/amount|type|number|schema|rule/i);
    await live.runtime.kernel.flushAudit();
    const audit = await live.runtime.journal.read('kernel', { limit: 1000 });
    const records = audit.flatMap((e) =>
      e.kind === 'kernel.verdicts' ? (e.body as { records: { detail: unknown }[] }).records : [],
    );
    expect(records.some((r) => JSON.stringify(r.detail).includes('"reason":"constraints"'))).toBe(
      true,
    );
  });

  it('C-5: a conformant response carries an event that verifies offline from the pinned root', async () => {
    const trust = (await (await fetch(`${live.url}/v1/trust`)).json()) as Record<string, any>;
    const res = await post(request({ amount: 640 }));
    expect(res.json.data.label).toBe('MANAGER_REVIEW');
    const event = res.json.attestation;
    const verified = verifyConformanceEvent(event, {
      root: trust.root,
      revocationList: trust.revocation_list,
      artifact: { amount: 640 },
      protocol: refundProtocol(),
      generationMetadataHash: EMPTY_METADATA_HASH,
    });
    expect(verified.ok).toBe(true);
    expect(event.artifact_hash).toBe(contentHash({ amount: 640 }));
    expect(JSON.stringify(trust)).not.toMatch(/PRIVATE KEY/);
  });

  it('C-6: the wire contract: inline protocol or registered hash, unified envelope, 200/400/422', async () => {
    const { editor } = await tokensFor(live.runtime, 'wire', { editor: 'editor' });
    const reg = await fetch(`${live.url}/v1/protocols`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${editor}` },
      body: JSON.stringify(refundProtocol()),
    });
    expect([200, 201]).toContain(reg.status);
    const { hash } = (await reg.json()) as { hash: string };
    expect(hash).toBe(contentHash(refundProtocol()));
    const byHash = await post(request({ amount: 20 }, hash));
    const inline = await post(request({ amount: 20 }));
    expect(byHash.status).toBe(200);
    expect(byHash.text).toBe(inline.text);
    expect(byHash.json).toMatchObject({
      status: 'EVALUATED',
      data: { conformant: true, label: 'AUTO_APPROVE' },
      error: null,
    });
  });
});

describe('bad requests get typed 4xx, never 5xx', () => {
  const cases: Array<
    [string, () => Promise<{ status: number; json: Record<string, any> }>, number, string]
  > = [
    ['malformed JSON', () => post(null, { raw: '{"artifact": ' }), 400, 'MALFORMED_BODY'],
    ['empty body', () => post(null, { raw: '' }), 400, 'MALFORMED_BODY'],
    [
      'text/plain',
      () => post(request({ amount: 1 }), { contentType: 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['a JSON array', () => post([1, 2]), 400, 'INVALID_BODY'],
    [
      'missing artifact',
      () =>
        post({ agentic_protocol: refundProtocol(), generation_metadata_hash: EMPTY_METADATA_HASH }),
      400,
      'INVALID_BODY',
    ],
    ['extra field', () => post({ ...request({ amount: 1 }), model: 'gpt' }), 400, 'INVALID_BODY'],
    [
      'bad metadata hash',
      () => post({ ...request({ amount: 1 }), generation_metadata_hash: 'md5:00' }),
      400,
      'INVALID_HASH',
    ],
    [
      'malformed protocol hash',
      () => post(request({ amount: 1 }, 'sha256:xyz')),
      400,
      'INVALID_HASH',
    ],
    [
      'unknown protocol hash',
      () => post(request({ amount: 1 }, `sha256:${'0'.repeat(64)}`)),
      404,
      'UNKNOWN_PROTOCOL',
    ],
    [
      'invalid inline protocol',
      () => post(request({ amount: 1 }, { ...refundProtocol(), labels: [] })),
      400,
      'INVALID_PROTOCOL',
    ],
    ['protocol as a number', () => post(request({ amount: 1 }, 7)), 400, 'INVALID_BODY'],
    [
      'nesting too deep',
      () => post(null, { raw: `{"artifact":${'['.repeat(200)}${']'.repeat(200)}}` }),
      400,
      'NESTING_TOO_DEEP',
    ],
    [
      'a body over 1 MiB',
      () => post(request({ amount: 1, pad: 'x'.repeat(1024 * 1024) })),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];
  for (const [what, send, status, code] of cases) {
    it(`${what} → ${status} ${code}`, async () => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.json.status).toBe('REJECTED');
      expect(res.json.error.failure_code).toBe(code);
      expect(res.json.attestation).toBeNull();
    });
  }

  it('a request with no content type is refused', async () => {
    const res = await fetch(`${live.url}/v1/validate`, { method: 'POST', body: Buffer.from('{}') });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('a request with no body at all, with or without a content type, is MALFORMED_BODY', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'content-length': '0' },
      { 'content-type': 'application/json' },
    ];
    for (const headers of variants) {
      const res = await fetch(`${live.url}/v1/validate`, { method: 'POST', headers });
      expect(res.status).toBe(400);
      const json = (await res.json()) as { status: string; error: { failure_code: string } };
      expect(json.status).toBe('REJECTED');
      expect(json.error.failure_code).toBe('MALFORMED_BODY');
    }
  });

  it('random JSON bodies never produce a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            artifact: fc.jsonValue(),
            agentic_protocol: fc.jsonValue(),
            generation_metadata_hash: fc.jsonValue(),
          }),
          fc.record({
            artifact: fc.jsonValue(),
            agentic_protocol: fc.constant(refundProtocol()),
            generation_metadata_hash: fc.constant(EMPTY_METADATA_HASH),
          }),
          // Protocols built to make the kernel work as hard as it can (issue 11).
          hostileBody(),
        ),
        async (body) => {
          const res = await post(body);
          expect(res.status).toBeLessThan(500);
          expect(Object.keys(res.json).sort()).toEqual(ENVELOPE_KEYS);
        },
      ),
      { numRuns: 150 },
    );
    // The audit of everything above is journaled whole: the kernel's chain still verifies.
    await live.runtime.kernel.flushAudit();
    const report = await verifyProject(live.runtime.journal, 'kernel', {
      root: live.runtime.keyring.rootCertificatePem,
    });
    expect(report.ok).toBe(true);
  });
});
