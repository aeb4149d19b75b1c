import { X509Certificate } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBytes } from '../../src/core/index.js';
import {
  certificateFingerprint,
  checkIssuer,
  checkRevocationList,
  Keyring,
} from '../../src/trust/index.js';
import { freshDir } from './temp-dir.js';

function code(result: { ok: boolean; issues?: readonly { code: string }[] }): string {
  return result.ok ? 'OK' : (result.issues?.[0]?.code ?? 'NO_ISSUE');
}

async function ring(): Promise<Keyring> {
  return Keyring.init(await freshDir());
}

/** The base64 body characters of a PEM, with their offsets in the text. */
function bodyPositions(pem: string): number[] {
  const positions: number[] = [];
  const start = pem.indexOf('\n') + 1;
  const end = pem.lastIndexOf('-----END');
  for (let i = start; i < end; i++) if (pem[i] !== '\n') positions.push(i);
  return positions;
}

function flip(text: string, at: number, xor: number): string {
  return text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ xor) + text.slice(at + 1);
}

describe('checkIssuer', () => {
  it('accepts an issuer of this root and returns its fingerprint and key', async () => {
    const a = await ring();
    const issuer = a.activeIssuer().certificatePem;
    const result = checkIssuer(issuer, a.rootCertificatePem, a.revocationListPem());
    expect(code(result)).toBe('OK');
    const der = new X509Certificate(issuer).raw;
    expect(result.ok && result.value.fingerprint).toBe(hashBytes(der));
    expect(certificateFingerprint(issuer)).toBe(hashBytes(der));
  });

  it('rejects an issuer from a different keyring', async () => {
    const [a, b] = [await ring(), await ring()];
    const foreign = b.activeIssuer().certificatePem;
    expect(code(checkIssuer(foreign, a.rootCertificatePem))).toBe('CHAIN_INVALID');
    expect(code(checkIssuer(foreign, a.rootCertificatePem, a.revocationListPem()))).toBe(
      'CHAIN_INVALID',
    );
  });

  it('never accepts a revocation list signed by a different root', async () => {
    const [a, b] = [await ring(), await ring()];
    const issuer = a.activeIssuer().certificatePem;
    await a.revoke(a.activeIssuer().fingerprint);
    // b's list is well formed, names "canonry root" as issuer, and does not list a's issuer.
    const foreignList = b.revocationListPem();
    expect(code(checkIssuer(issuer, a.rootCertificatePem, foreignList))).toBe('CHAIN_INVALID');
    expect(code(checkRevocationList(foreignList, a.rootCertificatePem))).toBe('CHAIN_INVALID');
    expect(code(checkIssuer(issuer, a.rootCertificatePem, a.revocationListPem()))).toBe(
      'ISSUER_REVOKED',
    );
  });

  it('rejects the root passed as the issuer, and an issuer passed as the root', async () => {
    const a = await ring();
    const root = a.rootCertificatePem;
    const issuer = a.activeIssuer().certificatePem;
    expect(code(checkIssuer(root, root))).toBe('CHAIN_INVALID');
    expect(code(checkIssuer(issuer, issuer))).toBe('CHAIN_INVALID');
  });

  it('returns INVALID_CERTIFICATE for junk without throwing', async () => {
    const a = await ring();
    const root = a.rootCertificatePem;
    const issuer = a.activeIssuer().certificatePem;
    const junk: unknown[] = [
      '',
      'junk',
      '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----',
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      issuer.replace('CERTIFICATE', 'X509 CRL'),
      issuer + issuer,
      `garbage\n${issuer}`,
      `${issuer}x`,
      'A'.repeat(1_000_000),
      null,
      undefined,
      42,
      {},
      Buffer.from(issuer),
    ];
    for (const value of junk) {
      expect(code(checkIssuer(value as string, root))).toBe('INVALID_CERTIFICATE');
      expect(code(checkIssuer(issuer, value as string))).toBe('INVALID_CERTIFICATE');
      expect(() => certificateFingerprint(value as string)).toThrowError(
        expect.objectContaining({ code: 'INVALID_CERTIFICATE' }),
      );
    }
    const junkLists = [...junk.filter((v) => v !== undefined), issuer, `${a.revocationListPem()}x`];
    for (const value of junkLists) {
      expect(code(checkIssuer(issuer, root, value as string))).toBe('INVALID_CERTIFICATE');
    }
  });

  it('rejects base64 with non-zero padding bits (two texts, one DER)', async () => {
    const issuer = (await ring()).activeIssuer().certificatePem;
    const end = issuer.indexOf('=');
    const pem =
      end > 0 ? flip(issuer, end - 1, 1) : flip(issuer, issuer.indexOf('\n-----END') - 1, 1);
    expect(code(checkIssuer(pem, issuer))).toBe('INVALID_CERTIFICATE');
  });

  it('fails for a flipped byte anywhere in the issuer PEM body', async () => {
    const a = await ring();
    const root = a.rootCertificatePem;
    const list = a.revocationListPem();
    const issuer = a.activeIssuer().certificatePem;
    const positions = bodyPositions(issuer);
    fc.assert(
      fc.property(fc.constantFrom(...positions), fc.integer({ min: 1, max: 127 }), (at, xor) => {
        expect(checkIssuer(flip(issuer, at, xor), root, list).ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('fails for a flipped byte anywhere in the revocation list body', async () => {
    const a = await ring();
    const root = a.rootCertificatePem;
    const issuer = a.activeIssuer().certificatePem;
    const list = a.revocationListPem();
    fc.assert(
      fc.property(
        fc.constantFrom(...bodyPositions(list)),
        fc.integer({ min: 1, max: 127 }),
        (at, xor) => {
          expect(checkIssuer(issuer, root, flip(list, at, xor)).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('checks validity only when asked, at the given instant', async () => {
    const now = new Date('2030-06-01T00:00:00Z');
    const a = await Keyring.init(await freshDir(), { now });
    const issuer = a.activeIssuer().certificatePem;
    const root = a.rootCertificatePem;
    expect(code(checkIssuer(issuer, root))).toBe('OK');
    expect(code(checkIssuer(issuer, root, undefined, { at: now }))).toBe('OK');
    expect(code(checkIssuer(issuer, root, undefined, { at: new Date('2039-01-01Z') }))).toBe('OK');
    expect(code(checkIssuer(issuer, root, undefined, { at: new Date('2029-12-31Z') }))).toBe(
      'CHAIN_INVALID',
    );
    expect(code(checkIssuer(issuer, root, undefined, { at: new Date('2041-01-01Z') }))).toBe(
      'CHAIN_INVALID',
    );
  });
});
