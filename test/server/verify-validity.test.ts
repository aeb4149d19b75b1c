// An event carries no signing time, so POST /v1/projects/:project/verify judges its issuer at the
// server's clock: one from an issuer past its notAfter is not verified. And a server whose active
// issuer has expired does not start, rather than sign what nobody could verify.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../src/kernel/index.js';
import { buildServer } from '../../src/server/index.js';
import { Keyring } from '../../src/trust/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { signerAt } from '../helpers/clock.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;
// Issuers live 10 years: one made 10 years and 30 days ago expired a month ago; its root (20
// years) is valid for ten more.
const MADE = new Date(Date.now() - (10 * 365 + 2 + 30) * DAY);

let runtime: CanonryRuntime;
let url: string;
let close: () => Promise<void>;
let token: string;
let expiredEvent: unknown;
let refusedStart: unknown;

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  const keyring = await Keyring.init(dir, { now: MADE });
  // What the issuer signed while it was valid.
  const kernel = new Kernel({ signer: signerAt(keyring, new Date(MADE.getTime() + DAY)) });
  expiredEvent = kernel.evaluate(
    { amount: 20 },
    compileProtocol(refundProtocol()),
    EMPTY_METADATA_HASH,
  ).event;
  refusedStart = await createCanonry({ dataDir: dir, logLevel: 'silent' }).then(
    async (r) => {
      await r.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  await keyring.rotate();
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

describe('an issuer past its window', () => {
  it('a server whose active issuer has expired does not start, and names the way out', () => {
    expect(refusedStart).toMatchObject({ code: 'NO_ACTIVE_ISSUER' });
    const message = (refusedStart as Error).message;
    expect(message).toContain('expired at');
    expect(message).toContain('canonry keys rotate');
  });

  it('POST …/verify does not verify an event its expired issuer signed', async () => {
    expect(expiredEvent).toBeTruthy();
    const res = await call(url, 'POST', '/v1/projects/p/verify', token, { event: expiredEvent });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verified: false, error: { code: 'CHAIN_INVALID' } });
  });

  it('after a rotation the server signs with the new issuer, and what it signs verifies', async () => {
    const { event } = runtime.kernel.evaluate(
      { amount: 20 },
      compileProtocol(refundProtocol()),
      EMPTY_METADATA_HASH,
    );
    const res = await call(url, 'POST', '/v1/projects/p/verify', token, { event });
    expect(res.body).toMatchObject({ verified: true });
  });
});
