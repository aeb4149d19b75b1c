import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkIssuer,
  checkRevocationList,
  Keyring,
  OfflineRoot,
  signDocument,
  verifyDocumentSignature,
} from '../../src/trust/index.js';
import {
  certify,
  keysSnapshot,
  offlineRoot,
  pinnedKeyring,
  productionKeyring,
} from './ceremony.js';
import { freshDir, rejectionCode } from './temp-dir.js';

const keysOf = (dataDir: string) => join(dataDir, 'keys');

function verifies(
  doc: Record<string, unknown>,
  root: OfflineRoot,
  list = root.revocationListPem(),
) {
  const result = verifyDocumentSignature(doc, { root: root.certificatePem, revocationList: list });
  return result.ok ? 'OK' : result.issues[0]!.code;
}

describe('the offline root', () => {
  it('lives in a 0700 directory of its own, every file 0600, and refuses a second create', async () => {
    const { root, rootDir } = await offlineRoot();
    expect((await stat(rootDir)).mode & 0o777).toBe(0o700);
    const names = (await readdir(rootDir)).sort();
    expect(names).toEqual(['issued.json', 'revocation.crl.pem', 'root.cert.pem', 'root.key.pem']);
    for (const name of names) {
      expect((await stat(join(rootDir, name))).mode & 0o777, name).toBe(0o600);
    }
    const list = checkRevocationList(root.revocationListPem(), root.certificatePem);
    expect(list.ok && list.value.number).toBe(1n);
    expect(await rejectionCode(OfflineRoot.create(rootDir))).toBe('KEYRING_EXISTS');
    expect(await rejectionCode(OfflineRoot.open(join(rootDir, 'nowhere')))).toBe('KEYRING_MISSING');
    expect((await OfflineRoot.open(rootDir)).fingerprint).toBe(root.fingerprint);
  });

  it('a corrupted root directory is KEYRING_CORRUPT', async () => {
    for (const [name, contents] of [
      ['issued.json', '{"format":1}'],
      ['root.key.pem', 'junk'],
      ['revocation.crl.pem', 'junk'],
    ]) {
      const { rootDir } = await offlineRoot();
      await writeFile(join(rootDir, name!), contents!);
      expect(await rejectionCode(OfflineRoot.open(rootDir)), name).toBe('KEYRING_CORRUPT');
    }
    const [a, b] = [await offlineRoot(), await offlineRoot()];
    await writeFile(
      join(a.rootDir, 'root.key.pem'),
      await readFile(join(b.rootDir, 'root.key.pem')),
    );
    expect(await rejectionCode(OfflineRoot.open(a.rootDir))).toBe('KEYRING_CORRUPT');
  });
});

describe('a keyring pinned to an offline root', () => {
  it('holds the root certificate and list but never the root key, and cannot sign yet', async () => {
    const { root } = await offlineRoot();
    const { ring, dataDir } = await pinnedKeyring(root);
    expect(ring.rootKey).toBe('offline');
    expect(ring.development).toBe(false);
    expect(ring.trustBundle().development_root).toBe(false);
    expect(ring.rootFingerprint).toBe(root.fingerprint);
    expect(ring.canSign).toBe(false);
    expect(ring.issuers()).toEqual([]);
    expect((await readdir(keysOf(dataDir))).sort()).toEqual([
      'keyring.json',
      'revocation.crl.pem',
      'root.cert.pem',
    ]);
    const index = JSON.parse(await readFile(join(keysOf(dataDir), 'keyring.json'), 'utf8'));
    expect(index).toMatchObject({ format: 2, development_root: false, root_key: 'offline' });
    expect(await rejectionCode(Keyring.openOrInit(dataDir))).toBe('NO_ACTIVE_ISSUER');
    expect(await rejectionCode(Promise.resolve().then(() => ring.signer()))).toBe(
      'NO_ACTIVE_ISSUER',
    );
    expect(await rejectionCode(ring.rotate())).toBe('ROOT_KEY_OFFLINE');
    expect(await rejectionCode(ring.revoke(root.fingerprint))).toBe('ROOT_KEY_OFFLINE');
  });

  it('csr keeps one pending key (0600) until installed; --new replaces it', async () => {
    const { root } = await offlineRoot();
    const { ring, dataDir } = await pinnedKeyring(root);
    const first = await ring.requestIssuer();
    expect(first.number).toBe(1);
    expect((await ring.requestIssuer()).certificateRequestPem).toBe(first.certificateRequestPem);
    const reopened = await Keyring.open(dataDir);
    expect((await reopened.requestIssuer()).certificateRequestPem).toBe(
      first.certificateRequestPem,
    );
    const keyFile = join(keysOf(dataDir), 'pending-issuer-1.key.pem');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(reopened.pendingIssuer()?.number).toBe(1);
    expect(await rejectionCode(Keyring.openOrInit(dataDir))).toBe('NO_ACTIVE_ISSUER');
    const fresh = await reopened.requestIssuer({ fresh: true });
    expect(fresh.certificateRequestPem).not.toBe(first.certificateRequestPem);
    expect((await readdir(keysOf(dataDir))).filter((n) => n.endsWith('.key.pem'))).toEqual([
      'pending-issuer-1.key.pem',
    ]);
    // The replaced key's certificate no longer fits.
    const stale = await root.signRequest(first.certificateRequestPem);
    expect(await rejectionCode(reopened.installIssuer(stale.certificatePem))).toBe(
      'PENDING_KEY_MISMATCH',
    );
  });

  it('installs the certificate the root signed; documents verify from the root alone', async () => {
    const { root, ring, dataDir } = await productionKeyring();
    expect(ring.canSign).toBe(true);
    expect(ring.pendingIssuer()).toBeUndefined();
    expect((await readdir(keysOf(dataDir))).sort()).toEqual([
      'issuer-1.cert.pem',
      'issuer-1.key.pem',
      'keyring.json',
      'revocation.crl.pem',
      'root.cert.pem',
    ]);
    for (const name of await readdir(keysOf(dataDir))) {
      expect((await stat(join(keysOf(dataDir), name))).mode & 0o777, name).toBe(0o600);
    }
    const doc = signDocument({ claim: 'x' }, ring.signer());
    expect(verifies(doc, root)).toBe('OK');
    expect((await Keyring.openOrInit(dataDir)).activeIssuer().fingerprint).toBe(
      ring.activeIssuer().fingerprint,
    );
    expect(root.issued().map((i) => i.fingerprint)).toEqual([ring.activeIssuer().fingerprint]);
  });

  it('rotates by a second request: the old issuer retires, its key goes, its documents verify', async () => {
    const { root, ring, dataDir } = await productionKeyring();
    const oldSigner = ring.signer();
    const oldDoc = signDocument({ n: 1 }, oldSigner);
    const next = await certify(ring, root);
    expect(next.active).toBe(true);
    expect(ring.issuers().map((i) => i.active)).toEqual([false, true]);
    const keys = (await readdir(keysOf(dataDir))).filter((n) => n.endsWith('.key.pem'));
    expect(keys).toEqual(['issuer-2.key.pem']);
    expect(await rejectionCode(Promise.resolve().then(() => oldSigner.sign(Buffer.alloc(1))))).toBe(
      'UNKNOWN_ISSUER',
    );
    expect(verifies(oldDoc, root)).toBe('OK');
    expect(verifies(signDocument({ n: 2 }, ring.signer()), root)).toBe('OK');
  });

  it('revokes offline: the server installs the newer list, older and foreign lists are refused', async () => {
    const { root, ring, dataDir } = await productionKeyring();
    const oldDoc = signDocument({ n: 1 }, ring.signer());
    const old = ring.activeIssuer();
    await certify(ring, root);
    const listOne = root.revocationListPem();
    const { revocationListPem, number } = await root.revoke(old.fingerprint);
    expect(number).toBe(2n);
    expect(verifies(oldDoc, root, revocationListPem)).toBe('ISSUER_REVOKED');
    const installed = await ring.installRevocationList(revocationListPem);
    expect(installed.number).toBe(2n);
    expect(installed.revoked.map((i) => i.fingerprint)).toEqual([old.fingerprint]);
    expect(ring.issuers().map((i) => i.revoked)).toEqual([true, false]);
    expect(ring.canSign).toBe(true);
    expect((await Keyring.open(dataDir)).revocationListPem()).toBe(revocationListPem);
    const before = await keysSnapshot(dataDir);
    expect(await rejectionCode(ring.installRevocationList(listOne))).toBe('STALE_REVOCATION_LIST');
    expect(await rejectionCode(ring.installRevocationList(revocationListPem))).toBe(
      'STALE_REVOCATION_LIST',
    );
    const other = await offlineRoot();
    await other.root.revoke(
      (await certify((await pinnedKeyring(other.root)).ring, other.root)).fingerprint,
    );
    expect(await rejectionCode(ring.installRevocationList(other.root.revocationListPem()))).toBe(
      'CHAIN_INVALID',
    );
    for (const junk of ['', 'junk', revocationListPem.replace('X509 CRL', 'CERTIFICATE')]) {
      expect(await rejectionCode(ring.installRevocationList(junk))).toBe('INVALID_CERTIFICATE');
    }
    expect(await keysSnapshot(dataDir)).toEqual(before);
  });

  it('a list revoking the active issuer stops signing until a new issuer is installed', async () => {
    const { root, ring, dataDir } = await productionKeyring();
    const signer = ring.signer();
    const { revocationListPem } = await root.revoke(signer.fingerprint);
    await ring.installRevocationList(revocationListPem);
    expect(ring.canSign).toBe(false);
    expect(await rejectionCode(Promise.resolve().then(() => signer.sign(Buffer.alloc(1))))).toBe(
      'UNKNOWN_ISSUER',
    );
    expect((await readdir(keysOf(dataDir))).filter((n) => n.endsWith('.key.pem'))).toEqual([]);
    expect(await rejectionCode(Keyring.openOrInit(dataDir))).toBe('NO_ACTIVE_ISSUER');
    await certify(ring, root);
    expect(verifies(signDocument({ n: 3 }, ring.signer()), root)).toBe('OK');
  });

  it('open finishes an install-crl cut short after the list was written', async () => {
    const { root, ring, dataDir } = await productionKeyring();
    const { revocationListPem } = await root.revoke(ring.activeIssuer().fingerprint);
    await writeFile(join(keysOf(dataDir), 'revocation.crl.pem'), revocationListPem);
    const reopened = await Keyring.open(dataDir);
    expect(reopened.canSign).toBe(false);
    expect(reopened.issuers()[0]?.revoked).toBe(true);
    expect((await readdir(keysOf(dataDir))).filter((n) => n.endsWith('.key.pem'))).toEqual([]);
  });

  it.each([
    ['root_key claims local', (i: Record<string, any>) => ({ ...i, root_key: 'local' })],
    ['root_key is unknown', (i: Record<string, any>) => ({ ...i, root_key: 'remote' })],
    [
      'development_root is a string',
      (i: Record<string, any>) => ({ ...i, development_root: 'no' }),
    ],
    ['no active issuer named', (i: Record<string, any>) => ({ ...i, active_issuer: null })],
    [
      'the pending key is another key',
      (i: Record<string, any>) => ({
        ...i,
        pending_issuer: { ...i.pending_issuer, public_key: 'A'.repeat(43) },
      }),
    ],
    [
      'the pending number is not above the issuers',
      (i: Record<string, any>) => ({ ...i, pending_issuer: { ...i.pending_issuer, number: 1 } }),
    ],
    ['an unknown field', (i: Record<string, any>) => ({ ...i, extra: true })],
    ['format 3', (i: Record<string, any>) => ({ ...i, format: 3 })],
  ])('a production keyring.json where %s is KEYRING_CORRUPT', async (_, mutate) => {
    const { root, ring, dataDir } = await productionKeyring();
    await ring.requestIssuer();
    const path = join(keysOf(dataDir), 'keyring.json');
    const index = JSON.parse(await readFile(path, 'utf8'));
    expect(index.pending_issuer.number).toBe(2);
    await writeFile(path, JSON.stringify(mutate(index)));
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
    expect(root.issued()).toHaveLength(1);
  });

  it('a root key dropped into the keys directory makes the keyring KEYRING_CORRUPT', async () => {
    const { rootDir, dataDir } = await productionKeyring();
    await writeFile(
      join(keysOf(dataDir), 'root.key.pem'),
      await readFile(join(rootDir, 'root.key.pem')),
    );
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
  });

  it('the root private key appears nowhere in the data directory', async () => {
    const { rootDir, dataDir } = await productionKeyring();
    const pem = await readFile(join(rootDir, 'root.key.pem'), 'utf8');
    const d = createPrivateKey(pem).export({ format: 'jwk' }).d as string;
    const raw = Buffer.from(d, 'base64url');
    const needles = [raw.toString('hex'), raw.toString('base64').replace(/=+$/, ''), d];
    for (const name of await readdir(keysOf(dataDir))) {
      const bytes = await readFile(join(keysOf(dataDir), name));
      expect(bytes.includes(raw), name).toBe(false);
      for (const needle of needles) expect(bytes.toString('latin1'), name).not.toContain(needle);
    }
  });
});

describe('install-issuer refuses hostile certificates and changes nothing', () => {
  it('another root, a CA, another key, junk, a revoked certificate, nothing pending', async () => {
    const { root } = await offlineRoot();
    const { ring, dataDir } = await pinnedKeyring(root);
    const request = await ring.requestIssuer();
    const foreign = await offlineRoot();
    const fromOtherRoot = (await foreign.root.signRequest(request.certificateRequestPem))
      .certificatePem;
    const otherKeyring = (await pinnedKeyring(root)).ring;
    const forOtherKey = (
      await root.signRequest((await otherKeyring.requestIssuer()).certificateRequestPem)
    ).certificatePem;
    const before = await keysSnapshot(dataDir);
    const cases: [string, string][] = [
      [fromOtherRoot, 'CHAIN_INVALID'],
      [root.certificatePem, 'CHAIN_INVALID'],
      [foreign.root.certificatePem, 'CHAIN_INVALID'],
      [forOtherKey, 'PENDING_KEY_MISMATCH'],
      ['', 'INVALID_CERTIFICATE'],
      ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'INVALID_CERTIFICATE'],
      [request.certificateRequestPem, 'INVALID_CERTIFICATE'],
      [`${fromOtherRoot}${fromOtherRoot}`, 'INVALID_CERTIFICATE'],
    ];
    for (const [pem, code] of cases) {
      expect(await rejectionCode(ring.installIssuer(pem)), code).toBe(code);
    }
    expect(await keysSnapshot(dataDir)).toEqual(before);

    // Signed for the pending key, then revoked before it was installed.
    const signed = await root.signRequest(request.certificateRequestPem);
    await ring.installRevocationList((await root.revoke(signed.fingerprint)).revocationListPem);
    expect(await rejectionCode(ring.installIssuer(signed.certificatePem))).toBe('ISSUER_REVOKED');
    expect(await rejectionCode(root.signRequest(request.certificateRequestPem))).toBe(
      'ISSUER_REVOKED',
    );
    const replacement = await ring.requestIssuer({ fresh: true });
    await ring.installIssuer(
      (await root.signRequest(replacement.certificateRequestPem)).certificatePem,
    );
    expect(ring.canSign).toBe(true);
    expect(await rejectionCode(ring.installIssuer(forOtherKey))).toBe('PENDING_KEY_MISMATCH');
  });

  it('init --root-cert refuses a bad root or list and leaves no keys directory', async () => {
    const { root } = await offlineRoot();
    const other = await offlineRoot();
    const issuer = (await productionKeyring()).ring.activeIssuer().certificatePem;
    const cases: [string, string, string][] = [
      ['junk', root.revocationListPem(), 'INVALID_CERTIFICATE'],
      [issuer, root.revocationListPem(), 'CHAIN_INVALID'],
      [root.certificatePem, other.root.revocationListPem(), 'CHAIN_INVALID'],
      [root.certificatePem, 'junk', 'INVALID_CERTIFICATE'],
    ];
    for (const [certificatePem, revocationListPem, code] of cases) {
      const dataDir = await freshDir();
      const init = Keyring.init(dataDir, { offlineRoot: { certificatePem, revocationListPem } });
      expect(await rejectionCode(init), code).toBe(code);
      expect(await readdir(dataDir)).toEqual([]);
    }
  });

  it('a development keyring refuses the offline ceremony with DEVELOPMENT_ROOT', async () => {
    const ring = await Keyring.init(await freshDir());
    const { root } = await offlineRoot();
    expect(await rejectionCode(ring.requestIssuer())).toBe('DEVELOPMENT_ROOT');
    expect(await rejectionCode(ring.installIssuer(root.certificatePem))).toBe('DEVELOPMENT_ROOT');
    expect(await rejectionCode(ring.installRevocationList(ring.revocationListPem()))).toBe(
      'DEVELOPMENT_ROOT',
    );
  });
});

describe('issuer certificates from the offline root', () => {
  it('have the issuer profile and chain to the root; a second signing returns the same one', async () => {
    const { root } = await offlineRoot();
    const { ring } = await pinnedKeyring(root);
    const request = await ring.requestIssuer();
    const first = await root.signRequest(request.certificateRequestPem);
    const again = await root.signRequest(request.certificateRequestPem);
    expect(first.alreadyIssued).toBe(false);
    expect(again).toEqual({ ...first, alreadyIssued: true });
    const chain = checkIssuer(first.certificatePem, root.certificatePem, root.revocationListPem());
    expect(chain.ok && chain.value.developmentRoot).toBe(false);
    const cert = new X509Certificate(first.certificatePem);
    expect(cert.ca).toBe(false);
    expect(cert.subject).toBe('CN=canonry issuer 1');
    expect(cert.issuer).toBe('CN=canonry offline root');
    const years = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / (365.25 * 86_400_000);
    expect(Math.round(years)).toBe(10);
  });
});
