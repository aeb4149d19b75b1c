import { CanonryError } from '../core/index.js';
import { PEM_LABEL } from './asn1-constants.js';
import { checkRootCertificate } from './check-issuer.js';
import { DEVELOPMENT_ROOT_NAME, isDevelopmentSubject } from './development-root.js';
import {
  claimEmptyDirectory,
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  keysDirectory,
  removeFile,
  writeFileAtomic,
} from './keyring-files.js';
import { type KeyringIndex, serializeKeyringIndex } from './keyring-index.js';
import { mintIssuer, mintRoot, privateKeyPem } from './keyring-state.js';
import { decodePem, encodePem } from './pem.js';
import { createRevocationList } from './revocation-list-builder.js';
import { readRevocationList } from './revocation-list-reader.js';
import { unwrap } from './unwrap.js';

/** The public material of a root kept offline: what `keys init --root-cert --crl` pins. */
export interface OfflineRootMaterial {
  /** The root certificate (PEM). */
  certificatePem: string;
  /** A revocation list (PEM) signed by that root, usually its first (number 1, empty). */
  revocationListPem: string;
}

/**
 * Writes a development keyring into `<dataDir>/keys/`: a root minted here (its key beside the
 * issuer's, its subject `canonry development root`), issuer 1 and an empty revocation list
 * (number 1), with `keyring.json` written last so a crash never leaves a half keyring that opens.
 */
export async function createKeyring(dataDir: string, now: Date): Promise<void> {
  const dir = keysDirectory(dataDir);
  const release = await claimEmptyDirectory(dir);
  const root = mintRoot(DEVELOPMENT_ROOT_NAME, now);
  const issuer = mintIssuer(1, root, now);
  const list = createRevocationList(1n, [], root, now);
  const index: KeyringIndex = {
    format: 2,
    development_root: true,
    root_key: 'local',
    root_fingerprint: root.fingerprint,
    active_issuer: issuer.entry.fingerprint,
    pending_issuer: null,
    issuers: [issuer.entry],
  };
  await writeClaimed(dir, release, [
    [KEYRING_FILES.rootKey, privateKeyPem(root.privateKey)],
    [KEYRING_FILES.rootCertificate, root.pem],
    [issuerCertificateFile(1), issuer.pem],
    [issuerKeyFile(1), privateKeyPem(issuer.privateKey)],
    [KEYRING_FILES.revocationList, list],
    [KEYRING_FILES.index, serializeKeyringIndex(index)],
  ]);
}

/**
 * Writes a new keyring's files into the directory `release` claims, in order (the index last). If
 * one cannot be written (a full disk: STORE_FULL), the ones written and the claim are removed, so
 * the directory is empty again: the next start creates the keyring anew instead of finding half of
 * one without an index, which no start would open.
 */
async function writeClaimed(
  dir: string,
  release: () => Promise<void>,
  files: readonly (readonly [name: string, contents: string])[],
): Promise<void> {
  const written: string[] = [];
  try {
    for (const [name, contents] of files) {
      await writeFileAtomic(dir, name, contents);
      written.push(name);
    }
  } catch (error) {
    for (const name of written.reverse()) await removeFile(dir, name).catch(() => undefined);
    await release().catch(() => undefined);
    throw error;
  }
  await release();
}

/**
 * Writes a keyring pinned to a root whose key stays offline: the root certificate, its revocation
 * list and an index with no issuer yet (`keys csr` and `keys install-issuer` add one). Both inputs
 * are checked before anything is written: INVALID_CERTIFICATE, CHAIN_INVALID (not a self-signed
 * Ed25519 CA, expired, or a list the root did not sign).
 */
export async function createOfflineKeyring(
  dataDir: string,
  material: OfflineRootMaterial,
  now: Date,
): Promise<void> {
  const root = unwrap(checkRootCertificate(material.certificatePem));
  if (root.fields.notAfter.getTime() < now.getTime()) {
    throw new CanonryError('CHAIN_INVALID', 'the root certificate has expired');
  }
  const verifier = { publicKey: root.x509.publicKey, subject: root.fields.subject };
  unwrap(readRevocationList(material.revocationListPem, verifier));
  const listDer = decodePem(material.revocationListPem, PEM_LABEL.revocationList)!;
  const dir = keysDirectory(dataDir);
  const release = await claimEmptyDirectory(dir);
  const index: KeyringIndex = {
    format: 2,
    development_root: isDevelopmentSubject(root.fields.subject),
    root_key: 'offline',
    root_fingerprint: root.fingerprint,
    active_issuer: null,
    pending_issuer: null,
    issuers: [],
  };
  await writeClaimed(dir, release, [
    [KEYRING_FILES.rootCertificate, encodePem(PEM_LABEL.certificate, root.der)],
    [KEYRING_FILES.revocationList, encodePem(PEM_LABEL.revocationList, listDer)],
    [KEYRING_FILES.index, serializeKeyringIndex(index)],
  ]);
}
