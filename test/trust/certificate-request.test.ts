import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkIssuer } from '../../src/trust/index.js';
import { offlineRoot, pinnedKeyring } from './ceremony.js';
import { openssl, opensslRequest, opensslStatus, put } from './openssl.js';
import { freshDir, rejectionCode } from './temp-dir.js';

function der(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s/g, ''), 'base64');
}

function pem(bytes: Buffer): string {
  const lines = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}

describe('issuer signing requests', () => {
  it('OpenSSL verifies the request canonry writes and reads its key and subject', async () => {
    const { root } = await offlineRoot();
    const { ring } = await pinnedKeyring(root);
    const { certificateRequestPem } = await ring.requestIssuer();
    const dir = await freshDir();
    put(dir, 'req.csr', certificateRequestPem);
    const checked = openssl(dir, 'req', '-in', 'req.csr', '-verify', '-noout', '-subject');
    expect(checked).toContain('subject=CN = canonry issuer 1');
    const text = openssl(dir, 'req', '-in', 'req.csr', '-noout', '-text');
    expect(text).toContain('Public Key Algorithm: ED25519');
    expect(text).toContain('Signature Algorithm: ED25519');
    expect(checked).toMatch(/verify OK|self-signature ok/i);
    const tampered = der(certificateRequestPem);
    tampered[tampered.length - 1]! ^= 0x01;
    put(dir, 'bad.csr', pem(tampered));
    // OpenSSL 3.0 exits 0 here and says so only in its output.
    const refused = opensslStatus(dir, 'req', '-in', 'bad.csr', '-verify', '-noout');
    expect(refused.output).toMatch(/verify failure/i);
    expect(refused.output).not.toMatch(/verify OK|self-signature ok/i);
  });

  it('signs an OpenSSL-made request; OpenSSL verifies the issuer, then sees it revoked', async () => {
    const { root, rootDir } = await offlineRoot();
    const dir = await freshDir();
    const request = opensslRequest(dir, 'host', '/CN=canonry issuer 7');
    const signed = await root.signRequest(request);
    put(dir, 'issuer.pem', signed.certificatePem);
    put(dir, 'root.pem', root.certificatePem);
    const keyText = openssl(dir, 'pkey', '-in', 'host.key.pem', '-pubout');
    const certKey = openssl(dir, 'x509', '-in', 'issuer.pem', '-noout', '-pubkey');
    expect(certKey).toBe(keyText);
    expect(openssl(dir, 'verify', '-CAfile', 'root.pem', 'issuer.pem')).toContain('issuer.pem: OK');
    put(dir, 'crl1.pem', root.revocationListPem());
    const args = ['verify', '-crl_check', '-CAfile', 'root.pem', '-CRLfile'];
    expect(openssl(dir, ...args, 'crl1.pem', 'issuer.pem')).toContain('OK');
    put(dir, 'crl2.pem', (await root.revoke(signed.fingerprint)).revocationListPem);
    const revoked = opensslStatus(dir, ...args, 'crl2.pem', 'issuer.pem');
    expect(revoked.ok).toBe(false);
    expect(revoked.output).toContain('certificate revoked');
    const log = JSON.parse(await readFile(join(rootDir, 'issued.json'), 'utf8'));
    expect(log.issued).toHaveLength(1);
    expect(log.issued[0].revoked_at).not.toBeNull();
  });

  it('refuses hostile requests with typed errors and records nothing', async () => {
    const { root, rootDir } = await offlineRoot();
    const { ring } = await pinnedKeyring(root);
    const good = (await ring.requestIssuer()).certificateRequestPem;
    const dir = await freshDir();
    const badSignature = der(good);
    badSignature[badSignature.length - 1]! ^= 0x01;
    put(dir, 'root.key.pem', await readFile(join(rootDir, 'root.key.pem'), 'utf8'));
    openssl(
      dir,
      'req',
      '-new',
      '-key',
      'root.key.pem',
      '-subj',
      '/CN=canonry issuer 1',
      '-out',
      'r.csr',
    );
    const cases: [unknown, string][] = [
      [pem(badSignature), 'SIGNATURE_INVALID'],
      [opensslRequest(dir, 'evil', '/CN=evil'), 'INVALID_CSR'],
      [opensslRequest(dir, 'two', '/CN=canonry issuer 1/O=acme'), 'INVALID_CSR'],
      [opensslRequest(dir, 'zero', '/CN=canonry issuer 0'), 'INVALID_CSR'],
      [
        opensslRequest(dir, 'attr', '/CN=canonry issuer 1', undefined, [
          '-addext',
          'basicConstraints=critical,CA:true',
        ]),
        'INVALID_CSR',
      ],
      [
        opensslRequest(dir, 'ec', '/CN=canonry issuer 1', [
          '-algorithm',
          'EC',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
        ]),
        'INVALID_CSR',
      ],
      [openssl(dir, 'req', '-in', 'r.csr'), 'INVALID_CSR'],
      [root.certificatePem, 'INVALID_CSR'],
      [`${good}${good}`, 'INVALID_CSR'],
      ['', 'INVALID_CSR'],
      ['junk', 'INVALID_CSR'],
      [
        '-----BEGIN CERTIFICATE REQUEST-----\nMAA=\n-----END CERTIFICATE REQUEST-----',
        'INVALID_CSR',
      ],
      [pem(Buffer.concat([der(good), Buffer.from([0])])), 'INVALID_CSR'],
      [null, 'INVALID_CSR'],
      [42, 'INVALID_CSR'],
    ];
    const logBefore = await readFile(join(rootDir, 'issued.json'), 'utf8');
    for (const [input, code] of cases) {
      expect(await rejectionCode(root.signRequest(input as string)), String(input)).toBe(code);
    }
    expect(await readFile(join(rootDir, 'issued.json'), 'utf8')).toBe(logBefore);
    expect(root.issued()).toEqual([]);
  });

  it('no changed byte anywhere in a request is ever signed', async () => {
    const { root } = await offlineRoot();
    const { ring } = await pinnedKeyring(root);
    const bytes = der((await ring.requestIssuer()).certificateRequestPem);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        async (at, xor) => {
          const changed = Buffer.from(bytes);
          changed[at]! ^= xor;
          const code = await rejectionCode(root.signRequest(pem(changed)));
          expect(['INVALID_CSR', 'SIGNATURE_INVALID']).toContain(code);
        },
      ),
      { numRuns: 300 },
    );
    expect(root.issued()).toEqual([]);
  });

  it('a certificate signed from the request carries the requested key and subject', async () => {
    const { root } = await offlineRoot();
    const { ring } = await pinnedKeyring(root);
    await ring.requestIssuer();
    const request = await ring.requestIssuer({ fresh: true });
    const signed = await root.signRequest(request.certificateRequestPem);
    const chain = checkIssuer(signed.certificatePem, root.certificatePem, root.revocationListPem());
    expect(chain.ok).toBe(true);
    const installed = await ring.installIssuer(signed.certificatePem);
    expect(installed.fingerprint).toBe(signed.fingerprint);
    expect(ring.issuers().map((i) => i.fingerprint)).toEqual([signed.fingerprint]);
  });
});
