// GET …/evolution/verify judges each event's signing certificate and the root at now, or at the
// instant the caller gives (`at`, every face: HTTP, `canonry events verify --at`, the MCP tool): the
// server's issuer, made now for ten years, holds today and fails before it was made and after it
// expires. An `at` that is no RFC 3339 instant is a typed 400 naming it.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { toolFor } from '../../src/mcp/index.js';
import { operationNamed } from '../../src/operations/index.js';
import { call } from '../helpers/auth.js';
import { servedFeedback } from '../helpers/evolution.js';

const PROJECT = 'evo-at';
const DAY = 24 * 3600 * 1000;
let url: string;
let token: string;
let rt: CanonryRuntime;
let issuer: { notBefore: Date; notAfter: Date };
const closers: (() => Promise<unknown> | unknown)[] = [];

const verify = (at?: string) =>
  call(
    url,
    'GET',
    `/v1/projects/${PROJECT}/evolution/verify${at === undefined ? '' : `?at=${encodeURIComponent(at)}`}`,
    token,
  );

beforeAll(async () => {
  ({ rt, url, viewer: token } = await servedFeedback(closers, PROJECT));
  const certificate = new X509Certificate(rt.keyring.activeIssuer().certificatePem);
  issuer = { notBefore: new Date(certificate.validFrom), notAfter: new Date(certificate.validTo) };
  expect(issuer.notBefore.getTime()).toBeLessThan(Date.now());
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('GET …/evolution/verify?at=', () => {
  it('verifies at now and at an instant inside the issuer window, and fails outside it', async () => {
    const now = await verify();
    expect(now.body).toMatchObject({ ok: true, failed: [] });
    expect(now.body.verified).toBeGreaterThan(0);
    const events = now.body.verified;
    const inside = await verify(new Date(issuer.notAfter.getTime() - DAY).toISOString());
    expect(inside.body).toMatchObject({ ok: true, verified: events });
    for (const outside of [
      new Date(issuer.notAfter.getTime() + DAY).toISOString(),
      new Date(issuer.notBefore.getTime() - DAY).toISOString().replace('Z', '+02:00'),
    ]) {
      const res = await verify(outside);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: false, verified: 0, checked: events });
      expect(JSON.stringify(res.body.failed)).toContain('CHAIN_INVALID');
    }
  });

  it('refuses an `at` that is no RFC 3339 instant, naming the field', async () => {
    for (const at of ['tomorrow', '2031-02-29T00:00:00Z', '2031-01-01T00:00:00', '']) {
      const res = await verify(at);
      expect(res.status, at).toBe(400);
      expect(res.body.error, at).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: 'at' },
      });
    }
  });

  it('is an input of the MCP tools too, event and stored events alike', () => {
    for (const name of ['verifyEvents', 'verifyEvent']) {
      const schema = toolFor(operationNamed(name)).inputSchema as unknown as {
        properties: Record<string, unknown>;
      };
      expect(schema.properties.at, name).toMatchObject({ type: 'string' });
    }
  });
});
