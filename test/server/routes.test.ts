import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { tokensFor } from '../helpers/auth.js';
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
  let tokens: Record<'editor' | 'owner' | 'agent' | 'viewer' | 'other', string>;
  beforeAll(async () => {
    tokens = {
      ...(await tokensFor(live.runtime, 'authors', {
        editor: 'editor',
        owner: 'owner',
        agent: 'agent',
        viewer: 'viewer',
      })),
      ...(await tokensFor(live.runtime, 'others', { other: 'editor' })),
    };
  });
  const register = (
    body: unknown,
    contentType = 'application/json',
    token: string | null = tokens.editor,
  ) =>
    fetch(`${live.url}/v1/protocols`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      },
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

  it('needs an editor token; the registration is journaled in its project, by its principal', async () => {
    const bundle = { ...refundProtocol(), version: 'journaled' };
    const before = await live.runtime.journal.head('authors');
    const anonymous = await register(bundle, 'application/json', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
    for (const role of ['agent', 'viewer'] as const) {
      const refused = await json(await register(bundle, 'application/json', tokens[role]));
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    expect((await live.runtime.journal.head('authors')).seq).toBe(before.seq);
    const unknown = await fetch(`${live.url}/v1/protocols/${contentHash(bundle)}`);
    expect(unknown.status).toBe(404);

    const made = await json(await register(bundle, 'application/json', tokens.owner));
    expect(made.status).toBe(201);
    const [entry] = await live.runtime.journal.read('authors', { after: before.seq });
    expect(entry).toMatchObject({
      kind: 'kernel.protocol',
      actor: 'owner',
      authority: { principal: 'owner', role: 'owner', project: 'authors' },
      body: { hash: contentHash(bundle) },
    });
    // Another project registering the same bundle records its own registration.
    const other = await json(await register(bundle, 'application/json', tokens.other));
    expect(other.status).toBe(201);
    expect((await live.runtime.journal.read('others', { after: 0 })).at(-1)?.kind).toBe(
      'kernel.protocol',
    );
  });

  it('refuses a bundle too large to register, and writes nothing', async () => {
    const before = await live.runtime.journal.head('authors');
    const big = { ...refundProtocol(), description: 'x'.repeat(4_000) };
    // Few values (under the schema's 4,096) but long ones: over 256 KiB as canonical JSON.
    const enums = Array.from({ length: 1_000 }, (_, i) => `value-${i}-${'y'.repeat(300)}`);
    const huge = await json(
      await register({
        ...big,
        constraints: { type: 'object', properties: { v: { enum: enums } } },
      }),
    );
    expect(huge.status).toBe(400);
    expect(huge.body.error.code).toBe('INVALID_PROTOCOL');
    expect(huge.body.error.message).toMatch(/at most 262144/);
    expect((await live.runtime.journal.head('authors')).seq).toBe(before.seq);
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
