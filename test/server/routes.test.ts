import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { liveServer, refundProtocol } from '../helpers/runtime.js';

let live: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => {
  live = await liveServer();
});
afterAll(() => live.close());

const json = async (res: Response) => ({
  status: res.status,
  body: (await res.json()) as Record<string, any>,
});

describe('GET /v1/trust', () => {
  it('returns the root, issuers and revocation list as PEM and never a private key', async () => {
    const { status, body } = await json(await fetch(`${live.url}/v1/trust`));
    expect(status).toBe(200);
    expect(body.root).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(body.revocation_list).toMatch(/-----BEGIN [A-Z0-9 ]+-----/);
    expect(body.issuers).toHaveLength(1);
    expect(body.issuers[0].certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(JSON.stringify(body)).not.toMatch(/PRIVATE KEY/);
  });
});

describe('protocols', () => {
  const register = (body: unknown, contentType = 'application/json') =>
    fetch(`${live.url}/v1/protocols`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('registers by content hash, idempotently, and reads back', async () => {
    const first = await json(await register(refundProtocol()));
    expect(first.status).toBe(201);
    expect(first.body.hash).toBe(contentHash(refundProtocol()));
    const again = await json(
      await register(Object.fromEntries(Object.entries(refundProtocol()).reverse())),
    );
    expect(again.status).toBe(200);
    expect(again.body.hash).toBe(first.body.hash);
    const read = await json(await fetch(`${live.url}/v1/protocols/${first.body.hash}`));
    expect(read.status).toBe(200);
    expect(read.body.protocol).toEqual(refundProtocol());
  });

  it('refuses bad bundles and bad hashes with typed 4xx', async () => {
    const badLabel = await json(
      await register({ ...refundProtocol(), rules: [{ label: 'PAY_TWICE', condition: true }] }),
    );
    expect(badLabel.status).toBe(400);
    expect(badLabel.body.error.code).toBe('INVALID_PROTOCOL');
    expect(JSON.stringify(badLabel.body.error.details)).toContain('PAY_TWICE');
    const badOp = await json(
      await register({
        ...refundProtocol(),
        rules: [{ label: 'BLOCK', condition: { method: [1, 'x'] } }],
      }),
    );
    expect(badOp.body.error.code).toBe('INVALID_PROTOCOL');
    const badSchema = await json(
      await register({ ...refundProtocol(), constraints: { type: 'nope' } }),
    );
    expect(badSchema.body.error.code).toBe('INVALID_PROTOCOL');
    expect((await json(await register('{x', 'application/json'))).body.error.code).toBe(
      'MALFORMED_BODY',
    );
    expect((await json(await register('x', 'text/plain'))).status).toBe(415);
    expect((await json(await fetch(`${live.url}/v1/protocols/sha256:12`))).body.error.code).toBe(
      'INVALID_HASH',
    );
    const missing = await json(await fetch(`${live.url}/v1/protocols/sha256:${'f'.repeat(64)}`));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('UNKNOWN_PROTOCOL');
  });

  it('answers unknown routes with a typed 404', async () => {
    const res = await json(await fetch(`${live.url}/v1/nothing`));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
