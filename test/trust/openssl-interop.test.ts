import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  certificateFingerprint,
  checkIssuer,
  checkRevocationList,
  signDocument,
  verifyDocumentSignature,
} from '../../src/trust/index.js';
import { certify, keysSnapshot, offlineRoot, pinnedKeyring } from './ceremony.js';
import { openssl, opensslRequest, put } from './openssl.js';
import { freshDir, rejectionCode } from './temp-dir.js';

/** A keyring with a pending request, and an OpenSSL CA working directory over the same root. */
async function setup() {
  const { root, rootDir } = await offlineRoot();
  const { ring, dataDir } = await pinnedKeyring(root);
  const dir = await freshDir();
  put(dir, 'req.csr', (await ring.requestIssuer()).certificateRequestPem);
  const ca = ['-CA', join(rootDir, 'root.cert.pem'), '-CAkey', join(rootDir, 'root.key.pem')];
  /** The pending request signed by the root with OpenSSL, with these X.509 v3 extensions. */
  const signWith = (name: string, extensions: string) => {
    put(dir, `${name}.ext`, extensions);
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      'req.csr',
      ...ca,
      '-days',
      '30',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
    return openssl(dir, 'x509', '-in', `${name}.pem`);
  };
  /** A CRL signed by the root with OpenSSL's `ca -gencrl`, numbered `hexNumber`, listing nothing. */
  const emptyList = (hexNumber: string) => {
    put(dir, 'index.txt', '');
    put(dir, 'crlnumber', `${hexNumber}\n`);
    put(
      dir,
      'ca.cnf',
      [
        '[ca]',
        'default_ca = c',
        '[c]',
        'database = index.txt',
        'crlnumber = crlnumber',
        'default_md = default',
        'default_crl_days = 30',
        `private_key = ${join(rootDir, 'root.key.pem')}`,
        `certificate = ${join(rootDir, 'root.cert.pem')}`,
        '',
      ].join('\n'),
    );
    openssl(dir, 'ca', '-gencrl', '-config', 'ca.cnf', '-out', 'list.pem');
    return openssl(dir, 'crl', '-in', 'list.pem');
  };
  return { root, ring, dataDir, signWith, emptyList };
}

describe('certificates and lists the root made with OpenSSL', () => {
  it('an OpenSSL-signed issuer with the issuer profile installs and signs', async () => {
    const { root, ring, signWith } = await setup();
    const pem = signWith(
      'good',
      'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\n',
    );
    await ring.installIssuer(pem);
    const doc = signDocument({ n: 1 }, ring.signer());
    const result = verifyDocumentSignature(doc, {
      root: root.certificatePem,
      revocationList: root.revocationListPem(),
    });
    expect(result.ok).toBe(true);
  });

  it('a root-signed certificate without the issuer profile is refused, nothing written', async () => {
    const { ring, dataDir, signWith } = await setup();
    const before = await keysSnapshot(dataDir);
    const cases: [string, string][] = [
      [
        'basicConstraints=critical,CA:false\nkeyUsage=critical,keyCertSign\n',
        'INVALID_CERTIFICATE',
      ],
      [
        'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature,cRLSign\n',
        'INVALID_CERTIFICATE',
      ],
      ['basicConstraints=critical,CA:false\n', 'INVALID_CERTIFICATE'],
      ['basicConstraints=critical,CA:true\nkeyUsage=critical,digitalSignature\n', 'CHAIN_INVALID'],
      [
        'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\nnameConstraints=critical,permitted;DNS:example.com\n',
        'INVALID_CERTIFICATE',
      ],
    ];
    for (const [extensions, code] of cases) {
      expect(await rejectionCode(ring.installIssuer(signWith('bad', extensions))), extensions).toBe(
        code,
      );
    }
    expect(await keysSnapshot(dataDir)).toEqual(before);
    expect(ring.canSign).toBe(false);
  });

  it('a root-signed key without the issuer profile signs nothing a relying party accepts', async () => {
    // The root certified this key, but not for signing: a relying party holding only the root must
    // refuse what it signs, as installIssuer refuses to sign with it.
    const { root, rootDir } = await offlineRoot();
    const dir = await freshDir();
    const rootPem = root.certificatePem;
    const list = root.revocationListPem();
    const cases: [string, string][] = [
      [
        'basicConstraints=critical,CA:false\nkeyUsage=critical,keyAgreement\n',
        'INVALID_CERTIFICATE',
      ],
      [
        'basicConstraints=critical,CA:false\nkeyUsage=critical,keyCertSign\n',
        'INVALID_CERTIFICATE',
      ],
      [
        'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature,cRLSign\n',
        'INVALID_CERTIFICATE',
      ],
      ['basicConstraints=critical,CA:false\n', 'INVALID_CERTIFICATE'],
      ['keyUsage=critical,digitalSignature\n', 'INVALID_CERTIFICATE'],
      // The profile itself, as a control: the same steps give a signer a relying party accepts.
      ['basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\n', 'OK'],
    ];
    for (const [i, [extensions, code]] of cases.entries()) {
      opensslRequest(dir, `k${i}`, `/CN=canonry issuer ${i + 10}`);
      put(dir, `k${i}.ext`, extensions);
      openssl(
        dir,
        'x509',
        '-req',
        '-in',
        `k${i}.csr`,
        '-CA',
        join(rootDir, 'root.cert.pem'),
        '-CAkey',
        join(rootDir, 'root.key.pem'),
        '-days',
        '30',
        '-extfile',
        `k${i}.ext`,
        '-out',
        `k${i}.pem`,
      );
      const certificatePem = readFileSync(join(dir, `k${i}.pem`), 'utf8');
      const key = createPrivateKey(readFileSync(join(dir, `k${i}.key.pem`)));
      const signer = {
        fingerprint: certificateFingerprint(certificatePem),
        certificatePem,
        sign: (bytes: Uint8Array) => sign(null, bytes, key),
      };
      const doc = signDocument({ n: i }, signer);
      const verified = verifyDocumentSignature(doc, { root: rootPem, revocationList: list });
      expect(verified.ok ? 'OK' : verified.issues[0]!.code, extensions).toBe(code);
      const checked = checkIssuer(certificatePem, rootPem, list);
      expect(checked.ok ? 'OK' : checked.issues[0]!.code, extensions).toBe(code);
    }
  });

  it('an OpenSSL-made list with a larger number installs', async () => {
    const { root, ring, emptyList } = await setup();
    const list = emptyList('05');
    expect(checkRevocationList(list, root.certificatePem).ok).toBe(true);
    expect((await ring.installRevocationList(list)).number).toBe(5n);
    expect(ring.revocationListPem()).toBe(list);
    expect(await rejectionCode(ring.installRevocationList(emptyList('05')))).toBe(
      'STALE_REVOCATION_LIST',
    );
  });

  it('a newer root-signed list that drops a revoked serial is refused', async () => {
    const { root, ring, dataDir, emptyList } = await setup();
    await certify(ring, root);
    const revoked = ring.activeIssuer().fingerprint;
    await ring.installRevocationList((await root.revoke(revoked)).revocationListPem);
    const before = await keysSnapshot(dataDir);
    expect(await rejectionCode(ring.installRevocationList(emptyList('09')))).toBe(
      'STALE_REVOCATION_LIST',
    );
    expect(await keysSnapshot(dataDir)).toEqual(before);
    expect(ring.issuers().find((i) => i.fingerprint === revoked)?.revoked).toBe(true);
  });
});
