// An event carries no signing time, so POST /v1/projects/:project/verify judges its issuer at the
// server's clock, or at the instant the caller gives (`at`): one from an issuer past its notAfter,
// or before its notBefore, is not verified at now, and is at an `at` inside its window. And a
// server whose active issuer has expired does not start, rather than sign what nobody could verify.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../src/kernel/index.js';
import { buildServer } from '../../src/server/index.js';
import { Keyring } from '../../src/trust/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { NOT_INSTANTS, signerAt } from '../helpers/clock.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;
// Issuers live 10 years: one made 10 years and 30 days ago expired a month ago; its root (20
// years) is valid for ten more.
const MADE = new Date(Date.now() - (10 * 365 + 2 + 30) * DAY);
// An issuer dated a month ahead (a clock set wrong where it was made): valid from then on.
const AHEAD = new Date(Date.now() + 30 * DAY);

let runtime: CanonryRuntime;
let url: string;
let close: () => Promise<void>;
let token: string;
let expiredEvent: unknown;
let earlyEvent: unknown;
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
  await keyring.rotate({ now: AHEAD });
  earlyEvent = new Kernel({ signer: signerAt(keyring, new Date(AHEAD.getTime() + DAY)) }).evaluate(
    { amount: 640 },
    compileProtocol(refundProtocol()),
    EMPTY_METADATA_HASH,
  ).event;
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

  it('verifies each at an `at` inside its issuer window, and neither at now nor outside it', async () => {
    const verify = (event: unknown, at?: string) =>
      call(url, 'POST', '/v1/projects/p/verify', token, { event, ...(at ? { at } : {}) });
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const [event, made, label] of [
      [expiredEvent, MADE, 'AUTO_APPROVE'],
      [earlyEvent, AHEAD, 'MANAGER_REVIEW'],
    ] as const) {
      const within = await verify(event, iso(made.getTime() + 2 * DAY));
      expect(within.status).toBe(200);
      expect(within.body).toMatchObject({ verified: true, label });
      // An offset other than Z names the same instant.
      const offset = new Date(made.getTime() + 2 * DAY).toISOString().replace('Z', '+00:00');
      expect((await verify(event, offset)).body).toMatchObject({ verified: true });
      expect((await verify(event)).body).toMatchObject({
        verified: false,
        error: { code: 'CHAIN_INVALID' },
      });
      expect((await verify(event, iso(made.getTime() - DAY))).body).toMatchObject({
        verified: false,
        error: { code: 'CHAIN_INVALID' },
      });
    }
    // Past the expired issuer's ten years (and its root's twenty) neither holds.
    expect((await verify(expiredEvent, iso(MADE.getTime() + 21 * 365 * DAY))).body).toMatchObject({
      verified: false,
    });
  });

  it('refuses an `at` that is no RFC 3339 instant with a typed 400 naming the field', async () => {
    for (const at of [...NOT_INSTANTS, 17, null, 'x'.repeat(100)]) {
      const res = await call(url, 'POST', '/v1/projects/p/verify', token, {
        event: expiredEvent,
        at,
      });
      expect(res.status, String(at)).toBe(400);
      expect(res.body.error.code, String(at)).toBe('INVALID_BODY');
      expect(res.body.error.details.field, String(at)).toMatch(/^\/?at$/);
    }
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
