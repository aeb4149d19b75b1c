import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  certificateFingerprint,
  checkIssuer,
  checkRevocationList,
  Keyring,
  verifyEd25519,
} from '../../src/trust/index.js';
import { freshDir, rejectionCode } from './temp-dir.js';

const keysOf = (dataDir: string) => join(dataDir, 'keys');

function listNumber(ring: Keyring): bigint {
  const list = checkRevocationList(ring.revocationListPem(), ring.rootCertificatePem);
  if (!list.ok) throw new Error(list.issues[0]?.message);
  return list.value.number;
}

function issueCode(result: ReturnType<typeof checkIssuer>): string {
  return result.ok ? 'OK' : result.issues[0]!.code;
}

describe('Keyring files', () => {
  it('init writes every file 0600 in a 0700 keys directory', async () => {
    const dataDir = await freshDir();
    await Keyring.init(dataDir);
    expect((await stat(keysOf(dataDir))).mode & 0o777).toBe(0o700);
    const names = (await readdir(keysOf(dataDir))).sort();
    expect(names).toEqual([
      'issuer-1.cert.pem',
      'issuer-1.key.pem',
      'keyring.json',
      'revocation.crl.pem',
      'root.cert.pem',
      'root.key.pem',
    ]);
    for (const name of names) {
      expect((await stat(join(keysOf(dataDir), name))).mode & 0o777, name).toBe(0o600);
    }
    const index = JSON.parse(await readFile(join(keysOf(dataDir), 'keyring.json'), 'utf8'));
    expect(index.format).toBe(2);
    expect(index.development_root).toBe(true);
    expect(index.root_key).toBe('local');
    expect(index.issuers).toHaveLength(1);
    expect(await readFile(join(keysOf(dataDir), 'revocation.crl.pem'), 'utf8')).toMatch(
      /^-----BEGIN X509 CRL-----\n/,
    );
  });

  it('init twice is KEYRING_EXISTS; an empty directory is KEYRING_MISSING', async () => {
    const dataDir = await freshDir();
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_MISSING');
    await Keyring.init(dataDir);
    expect(await rejectionCode(Keyring.init(dataDir))).toBe('KEYRING_EXISTS');
  });

  it('openOrInit creates once, then opens the same keyring', async () => {
    const dataDir = await freshDir();
    const first = await Keyring.openOrInit(dataDir);
    const second = await Keyring.openOrInit(dataDir);
    expect(second.rootFingerprint).toBe(first.rootFingerprint);
  });

  it('reopening gives the same root and active issuer', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    const again = await Keyring.open(dataDir);
    expect(again.rootFingerprint).toBe(ring.rootFingerprint);
    expect(again.rootFingerprint).toBe(certificateFingerprint(ring.rootCertificatePem));
    expect(again.activeIssuer()).toEqual(ring.activeIssuer());
  });

  it.each([
    ['keyring.json', '{"format":1,'],
    ['keyring.json', '{"format":2,"root_fingerprint":"x","active_issuer":"y","issuers":[]}'],
    ['keyring.json', '[]'],
    ['root.cert.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'],
    ['issuer-1.cert.pem', 'junk'],
    ['issuer-1.key.pem', 'junk'],
    ['root.key.pem', ''],
    ['revocation.crl.pem', '-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n'],
  ])('a corrupted %s is KEYRING_CORRUPT', async (name, contents) => {
    const dataDir = await freshDir();
    await Keyring.init(dataDir);
    await writeFile(join(keysOf(dataDir), name), contents);
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
  });

  it.each(['keyring.json', 'revocation.crl.pem', 'issuer-1.key.pem'])(
    '%s replaced by a FIFO is KEYRING_CORRUPT, never a wait for a writer',
    async (name) => {
      const dataDir = await freshDir();
      await Keyring.init(dataDir);
      await rm(join(keysOf(dataDir), name));
      execFileSync('mkfifo', [join(keysOf(dataDir), name)]);
      expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
    },
  );

  it('a key file that belongs to another keyring is KEYRING_CORRUPT', async () => {
    const [a, b] = [await freshDir(), await freshDir()];
    await Keyring.init(a);
    await Keyring.init(b);
    const foreign = await readFile(join(keysOf(b), 'issuer-1.key.pem'));
    await writeFile(join(keysOf(a), 'issuer-1.key.pem'), foreign);
    expect(await rejectionCode(Keyring.open(a))).toBe('KEYRING_CORRUPT');
  });

  it('a missing keyring.json beside other files is KEYRING_CORRUPT, not MISSING', async () => {
    const dataDir = await freshDir();
    await Keyring.init(dataDir);
    await rm(join(keysOf(dataDir), 'keyring.json'));
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
    expect(await rejectionCode(Keyring.init(dataDir))).toBe('KEYRING_EXISTS');
  });

  it('open finishes an interrupted rotation by deleting keys of inactive issuers', async () => {
    const dataDir = await freshDir();
    await Keyring.init(dataDir);
    await writeFile(join(keysOf(dataDir), 'issuer-7.key.pem'), 'stale', { mode: 0o600 });
    await Keyring.open(dataDir);
    expect(await readdir(keysOf(dataDir))).not.toContain('issuer-7.key.pem');
  });

  it('open treats an issuer listed but not yet marked in the index as revoked', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    const old = ring.activeIssuer();
    await ring.rotate();
    const indexBefore = await readFile(join(keysOf(dataDir), 'keyring.json'));
    await ring.revoke(old.fingerprint);
    await writeFile(join(keysOf(dataDir), 'keyring.json'), indexBefore);
    const reopened = await Keyring.open(dataDir);
    expect(reopened.issuers().find((i) => i.fingerprint === old.fingerprint)?.revoked).toBe(true);
  });

  it('an index that claims a revocation the signed list lacks is KEYRING_CORRUPT', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    await ring.rotate();
    const path = join(keysOf(dataDir), 'keyring.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"retired"', '"revoked"'));
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
  });
});

describe('Keyring signing, rotation and revocation', () => {
  it('signer signatures verify against the issuer certificate key', async () => {
    const ring = await Keyring.init(await freshDir());
    const signer = ring.signer();
    expect(signer.fingerprint).toBe(ring.activeIssuer().fingerprint);
    const message = Buffer.from('conformance event bytes');
    const signature = signer.sign(message);
    expect(signature).toHaveLength(64);
    const chain = checkIssuer(signer.certificatePem, ring.rootCertificatePem);
    expect(chain.ok).toBe(true);
    if (!chain.ok) return;
    expect(chain.value.fingerprint).toBe(signer.fingerprint);
    expect(verifyEd25519(chain.value.publicKey, message, signature)).toBe(true);
    expect(verifyEd25519(chain.value.publicKey, Buffer.from('other'), signature)).toBe(false);
  });

  it('signs on the thread pool the same bytes as in line, the message copied at the call; a retired signer rejects', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    const signer = ring.signer();
    expect(signer.signAsync).toBeTypeOf('function');
    const chain = checkIssuer(signer.certificatePem, ring.rootCertificatePem);
    if (!chain.ok) throw new Error('the issuer does not chain');
    // One buffer rewritten right after every call, as the event encoder rewrites its template.
    const message = Buffer.alloc(1_024);
    const pending: Array<{ original: Buffer; signature: Promise<Buffer> }> = [];
    for (let i = 0; i < 64; i++) {
      message.fill(i);
      const signature = signer.signAsync!(message);
      pending.push({ original: Buffer.from(message), signature });
      message.fill(255 - i);
    }
    for (const { original, signature } of pending) {
      const bytes = await signature;
      // Ed25519 is deterministic: the pooled signature is the in-line one over the original bytes.
      expect(bytes.equals(signer.sign(original))).toBe(true);
      expect(verifyEd25519(chain.value.publicKey, original, bytes)).toBe(true);
    }
    await ring.rotate();
    // A promise that rejects, never a throw at the call.
    const refused = signer.signAsync!(Buffer.alloc(1));
    expect(refused).toBeInstanceOf(Promise);
    expect(await rejectionCode(refused)).toBe('UNKNOWN_ISSUER');
    expect(await rejectionCode(signer.signAsync!('text' as never))).toBe('UNKNOWN_ISSUER');
    expect(await rejectionCode(ring.signer().signAsync!('text' as never))).toBe('INVALID_ARGUMENT');
  });

  it('rotate makes a new active issuer, drops the old key; the old cert still chains', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    const old = ring.activeIssuer();
    const oldSigner = ring.signer();
    const next = await ring.rotate();
    expect(next.fingerprint).not.toBe(old.fingerprint);
    expect(ring.activeIssuer().fingerprint).toBe(next.fingerprint);
    expect(ring.issuers().map((i) => i.active)).toEqual([false, true]);
    expect(ring.signer().fingerprint).toBe(next.fingerprint);
    expect(await rejectionCode(Promise.resolve().then(() => oldSigner.sign(Buffer.alloc(1))))).toBe(
      'UNKNOWN_ISSUER',
    );
    const names = await readdir(keysOf(dataDir));
    expect(names).not.toContain('issuer-1.key.pem');
    expect(names).toContain('issuer-2.key.pem');
    expect((await stat(join(keysOf(dataDir), 'issuer-2.key.pem'))).mode & 0o777).toBe(0o600);
    expect(issueCode(checkIssuer(old.certificatePem, ring.rootCertificatePem))).toBe('OK');
    expect(
      issueCode(checkIssuer(old.certificatePem, ring.rootCertificatePem, ring.revocationListPem())),
    ).toBe('OK');
    const reopened = await Keyring.open(dataDir);
    expect(reopened.activeIssuer().fingerprint).toBe(next.fingerprint);
    expect(reopened.issuers()).toHaveLength(2);
  });

  it('revoke lists the issuer in a new list; the old list still passes it', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    const old = ring.activeIssuer();
    await ring.rotate();
    const listBefore = ring.revocationListPem();
    const numberBefore = listNumber(ring);
    const revoked = await ring.revoke(old.fingerprint);
    expect(revoked).toMatchObject({ fingerprint: old.fingerprint, revoked: true, active: false });
    expect(listNumber(ring)).toBe(numberBefore + 1n);
    const root = ring.rootCertificatePem;
    expect(issueCode(checkIssuer(old.certificatePem, root, ring.revocationListPem()))).toBe(
      'ISSUER_REVOKED',
    );
    expect(issueCode(checkIssuer(old.certificatePem, root, listBefore))).toBe('OK');
    expect(
      issueCode(checkIssuer(ring.activeIssuer().certificatePem, root, ring.revocationListPem())),
    ).toBe('OK');
    const reopened = await Keyring.open(dataDir);
    expect(reopened.issuers().map((i) => i.revoked)).toEqual([true, false]);
    expect(reopened.revocationListPem()).toBe(ring.revocationListPem());
  });

  it('revoking the active issuer rotates first so signing keeps working', async () => {
    const ring = await Keyring.init(await freshDir());
    const first = ring.activeIssuer();
    await ring.revoke(first.fingerprint);
    const active = ring.activeIssuer();
    expect(active.fingerprint).not.toBe(first.fingerprint);
    expect(active.revoked).toBe(false);
    const signer = ring.signer();
    const chain = checkIssuer(
      signer.certificatePem,
      ring.rootCertificatePem,
      ring.revocationListPem(),
    );
    expect(chain.ok).toBe(true);
    if (chain.ok)
      expect(
        verifyEd25519(chain.value.publicKey, Buffer.alloc(3), signer.sign(Buffer.alloc(3))),
      ).toBe(true);
  });

  it('the list number increases with each revocation; revoking twice changes nothing', async () => {
    const ring = await Keyring.init(await freshDir());
    expect(listNumber(ring)).toBe(1n);
    const first = ring.activeIssuer().fingerprint;
    await ring.revoke(first);
    expect(listNumber(ring)).toBe(2n);
    await ring.revoke(ring.activeIssuer().fingerprint);
    expect(listNumber(ring)).toBe(3n);
    await ring.revoke(first);
    expect(listNumber(ring)).toBe(3n);
    const list = checkRevocationList(ring.revocationListPem(), ring.rootCertificatePem);
    expect(list.ok && list.value.entries).toHaveLength(2);
  });

  it('revoking an unknown fingerprint is UNKNOWN_ISSUER', async () => {
    const ring = await Keyring.init(await freshDir());
    expect(await rejectionCode(ring.revoke(`sha256:${'0'.repeat(64)}`))).toBe('UNKNOWN_ISSUER');
    expect(await rejectionCode(ring.revoke(ring.rootFingerprint))).toBe('UNKNOWN_ISSUER');
    expect(await rejectionCode(ring.revoke('junk'))).toBe('UNKNOWN_ISSUER');
  });

  it('concurrent rotations on one keyring are serialised', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    await Promise.all([ring.rotate(), ring.rotate(), ring.rotate()]);
    const reopened = await Keyring.open(dataDir);
    expect(reopened.issuers()).toHaveLength(4);
    expect(reopened.activeIssuer().fingerprint).toBe(ring.activeIssuer().fingerprint);
  });
});

describe('Keyring secrets', () => {
  it('no private key material leaks into bundle, JSON, inspect or errors', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.init(dataDir);
    await ring.rotate();
    const secrets: string[] = ['PRIVATE KEY'];
    for (const name of ['root.key.pem', 'issuer-2.key.pem']) {
      const pem = await readFile(join(keysOf(dataDir), name), 'utf8');
      const d = createPrivateKey(pem).export({ format: 'jwk' }).d as string;
      const raw = Buffer.from(d, 'base64url');
      secrets.push(raw.toString('hex'), raw.toString('base64').replace(/=+$/, ''), d);
      secrets.push(pem.split('\n')[1] as string);
    }
    const signer = ring.signer();
    const exposed = [
      JSON.stringify(ring.trustBundle()),
      JSON.stringify(ring),
      inspect(ring, { depth: 20, showHidden: true }),
      JSON.stringify(signer),
      inspect(signer, { depth: 20, showHidden: true }),
      JSON.stringify(ring.issuers()),
    ];
    await writeFile(join(keysOf(dataDir), 'root.key.pem'), 'x'.repeat(10));
    try {
      await Keyring.open(dataDir);
    } catch (error) {
      exposed.push(inspect(error, { depth: 20 }));
    }
    for (const text of exposed) {
      for (const secret of secrets) expect(text.toUpperCase()).not.toContain(secret.toUpperCase());
    }
  });
});
