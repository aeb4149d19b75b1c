import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compileProtocol,
  EMPTY_METADATA_HASH,
  Kernel,
  verifyConformanceEvent,
} from '../../src/kernel/index.js';
import { checkIssuer, isDevelopmentRoot, Keyring } from '../../src/trust/index.js';
import { refundProtocol } from '../helpers/runtime.js';
import { productionKeyring } from './ceremony.js';
import { openssl } from './openssl.js';
import { freshDir, rejectionCode } from './temp-dir.js';

const indexPath = (dataDir: string) => join(dataDir, 'keys', 'keyring.json');

function eventFrom(ring: Keyring) {
  const kernel = new Kernel({ signer: ring.signer() });
  const protocol = compileProtocol(refundProtocol());
  const { event } = kernel.evaluate({ amount: 20 }, protocol, EMPTY_METADATA_HASH);
  if (!event) throw new Error('expected a conformant verdict');
  return event;
}

/** A self-signed Ed25519 CA made by OpenSSL with the common name `cn`. */
async function opensslRoot(cn: string): Promise<string> {
  const dir = await freshDir();
  openssl(dir, 'genpkey', '-algorithm', 'ed25519', '-out', 'k.pem');
  const ext = [
    '-addext',
    'basicConstraints=critical,CA:true',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ];
  openssl(
    dir,
    'req',
    '-x509',
    '-new',
    '-key',
    'k.pem',
    '-subj',
    `/CN=${cn}`,
    '-days',
    '30',
    ...ext,
    '-out',
    'r.pem',
  );
  return readFile(join(dir, 'r.pem'), 'utf8');
}

describe('the auto-created root is a development root', () => {
  it('says so in keyring.json, on the keyring, in the trust bundle and in its certificate', async () => {
    const dataDir = await freshDir();
    const ring = await Keyring.openOrInit(dataDir);
    expect(ring.development).toBe(true);
    expect(ring.rootKey).toBe('local');
    expect(ring.trustBundle().development_root).toBe(true);
    const index = JSON.parse(await readFile(indexPath(dataDir), 'utf8'));
    expect(index).toMatchObject({ format: 2, development_root: true, root_key: 'local' });
    expect(new X509Certificate(ring.rootCertificatePem).subject).toBe(
      'CN=canonry development root',
    );
    expect(new X509Certificate(ring.activeIssuer().certificatePem).issuer).toBe(
      'CN=canonry development root',
    );
    expect(isDevelopmentRoot(ring.rootCertificatePem)).toBe(true);
    const chain = checkIssuer(ring.activeIssuer().certificatePem, ring.rootCertificatePem);
    expect(chain.ok && chain.value.developmentRoot).toBe(true);
  });

  it('offline verifiers see it: verifyConformanceEvent reports developmentRoot', async () => {
    const dev = await Keyring.init(await freshDir());
    const devResult = verifyConformanceEvent(eventFrom(dev), {
      root: dev.rootCertificatePem,
      revocationList: dev.revocationListPem(),
    });
    expect(devResult.ok && devResult.developmentRoot).toBe(true);
    const { ring, root } = await productionKeyring();
    const prodResult = verifyConformanceEvent(eventFrom(ring), {
      root: root.certificatePem,
      revocationList: root.revocationListPem(),
    });
    expect(prodResult.ok).toBe(true);
    expect(prodResult.ok && prodResult.developmentRoot).toBe(false);
    expect(ring.trustBundle().development_root).toBe(false);
  });

  it('a keyring written before format 2 loads as a development root and is upgraded on change', async () => {
    const dataDir = await freshDir();
    await Keyring.init(dataDir);
    const current = JSON.parse(await readFile(indexPath(dataDir), 'utf8'));
    const { development_root, root_key, pending_issuer, ...rest } = current;
    await writeFile(indexPath(dataDir), JSON.stringify({ ...rest, format: 1 }));
    const legacy = await Keyring.open(dataDir);
    expect(legacy.development).toBe(true);
    expect(legacy.rootKey).toBe('local');
    await legacy.rotate();
    const upgraded = JSON.parse(await readFile(indexPath(dataDir), 'utf8'));
    expect(upgraded).toMatchObject({ format: 2, development_root: true, root_key: 'local' });
    expect(upgraded.issuers).toHaveLength(2);
  });

  it('keyring.json that disagrees with the root about development is KEYRING_CORRUPT', async () => {
    const dev = await freshDir();
    await Keyring.init(dev);
    const text = await readFile(indexPath(dev), 'utf8');
    await writeFile(
      indexPath(dev),
      text.replace('"development_root": true', '"development_root": false'),
    );
    expect(await rejectionCode(Keyring.open(dev))).toBe('KEYRING_CORRUPT');
    const { dataDir } = await productionKeyring();
    const prod = await readFile(indexPath(dataDir), 'utf8');
    await writeFile(
      indexPath(dataDir),
      prod.replace('"development_root": false', '"development_root": true'),
    );
    expect(await rejectionCode(Keyring.open(dataDir))).toBe('KEYRING_CORRUPT');
  });

  it('pinning a development root elsewhere still marks the keyring development', async () => {
    const dev = await Keyring.init(await freshDir());
    const pinned = await Keyring.init(await freshDir(), {
      offlineRoot: {
        certificatePem: dev.rootCertificatePem,
        revocationListPem: dev.revocationListPem(),
      },
    });
    expect(pinned.rootKey).toBe('offline');
    expect(pinned.development).toBe(true);
    expect(pinned.trustBundle().development_root).toBe(true);
  });

  it('the subject decides: development in any case, the legacy name, not an offline root', async () => {
    expect(isDevelopmentRoot(await opensslRoot('canonry root'))).toBe(true);
    expect(isDevelopmentRoot(await opensslRoot('Acme DEVELOPMENT CA'))).toBe(true);
    expect(isDevelopmentRoot(await opensslRoot('acme production root'))).toBe(false);
    const { root } = await productionKeyring();
    expect(new X509Certificate(root.certificatePem).subject).toBe('CN=canonry offline root');
    expect(isDevelopmentRoot(root.certificatePem)).toBe(false);
    for (const junk of ['', 'junk', root.revocationListPem()]) {
      expect(isDevelopmentRoot(junk)).toBe(false);
    }
  });
});
