// GET …/proposals/:id checks the proposal's signed gate verdict at now, or at `at`: a proposal whose
// gate was signed a day into an issuer that expired a month ago verifies at an instant inside that
// window and not at now, where it is named ISSUER_EXPIRED with the instant it was recorded (the
// instant to ask with), rather than the CHAIN_INVALID a forged chain would give.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { PROJECT } from '../helpers/canon.js';
import { NOT_INSTANTS } from '../helpers/clock.js';
import { dataDirWithExpiredGate, type ExpiredGate } from '../helpers/past-issuers.js';
import { tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;

let runtime: CanonryRuntime;
let gate: ExpiredGate;
let url: string;
let token: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  gate = await dataDirWithExpiredGate(dir);
  runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  const app = buildServer(runtime, { logLevel: 'silent' });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  token = (await tokensFor(runtime, PROJECT, { v: 'viewer' })).v;
  close = async () => {
    await app.close();
    await runtime.close();
    cleanup();
  };
});
afterAll(async () => close());

const view = (query = '') =>
  call(url, 'GET', `/v1/projects/${PROJECT}/proposals/${gate.proposal_id}${query}`, token);

describe('GET …/proposals/:id?at=', () => {
  it('without `at`: not verified now, named ISSUER_EXPIRED with the instant it was recorded', async () => {
    const res = await view();
    expect(res.status).toBe(200);
    expect(res.body.gate.label).toBe(gate.label);
    const verification = res.body.gate.verification;
    expect(verification).toMatchObject({ ok: false, issue: 'ISSUER_EXPIRED' });
    expect(new Date(verification.valid_at).getTime()).toBe(gate.recorded.getTime());
  });

  it('verifies at an `at` inside the issuer window, and asked with valid_at', async () => {
    const within = new Date(gate.made.getTime() + 2 * DAY).toISOString();
    for (const at of [within, within.replace('Z', '+00:00')]) {
      const res = await view(`?at=${encodeURIComponent(at)}`);
      expect(res.status, at).toBe(200);
      expect(res.body.gate.verification, at).toEqual({ ok: true, issue: null });
    }
    const hinted = (await view()).body.gate.verification.valid_at as string;
    expect((await view(`?at=${encodeURIComponent(hinted)}`)).body.gate.verification).toEqual({
      ok: true,
      issue: null,
    });
  });

  it('an `at` outside the window is the kernel’s CHAIN_INVALID, with no hint', async () => {
    for (const at of [
      new Date().toISOString(),
      new Date(gate.made.getTime() - DAY).toISOString(),
    ]) {
      const res = await view(`?at=${encodeURIComponent(at)}`);
      expect(res.status, at).toBe(200);
      expect(res.body.gate.verification, at).toEqual({ ok: false, issue: 'CHAIN_INVALID' });
    }
  });

  it('refuses an `at` that is no RFC 3339 instant with a typed 400 naming the field', async () => {
    for (const at of NOT_INSTANTS) {
      const res = await view(`?at=${encodeURIComponent(at)}`);
      expect(res.status, at).toBe(400);
      expect(res.body.error.code, at).toBe('INVALID_ARGUMENT');
      expect(res.body.error.details.field, at).toBe('at');
    }
  });
});
