// POST /v1/projects/:project/verify judges the event's issuer at the server's clock: an event carries
// no signing time, so one from an issuer past its notAfter is not verified.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { compileProtocol, EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { buildServer } from '../../src/server/index.js';
import { Keyring } from '../../src/trust/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

let runtime: CanonryRuntime;
let url: string;
let close: () => Promise<void>;
let token: string;

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  // Made in 2000: its issuer expired in 2010, its root in 2020. The server still signs with it.
  await Keyring.init(dir, { now: new Date('2000-01-01T00:00:00Z') });
  runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  const app = buildServer(runtime, { logLevel: 'silent' });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  token = (await tokensFor(runtime, 'p', { v: 'viewer' })).v;
  close = async () => {
    await app.close();
    await runtime.close();
    cleanup();
  };
});
afterAll(async () => close());

describe('POST /v1/projects/:project/verify', () => {
  it('does not verify an event whose issuer has expired', async () => {
    const { event } = runtime.kernel.evaluate(
      { amount: 20 },
      compileProtocol(refundProtocol()),
      EMPTY_METADATA_HASH,
    );
    expect(event).toBeTruthy();
    const res = await call(url, 'POST', '/v1/projects/p/verify', token, { event });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verified: false, error: { code: 'CHAIN_INVALID' } });
  });
});
