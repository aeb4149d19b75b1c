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
  await writeFileAtomic(dir, KEYRING_FILES.rootKey, privateKeyPem(root.privateKey));
  await writeFileAtomic(dir, KEYRING_FILES.rootCertificate, root.pem);
  await writeFileAtomic(dir, issuerCertificateFile(1), issuer.pem);
  await writeFileAtomic(dir, issuerKeyFile(1), privateKeyPem(issuer.privateKey));
  await writeFileAtomic(dir, KEYRING_FILES.revocationList, list);
  const index: KeyringIndex = {
    format: 2,
    development_root: true,
    root_key: 'local',
    root_fingerprint: root.fingerprint,
    active_issuer: issuer.entry.fingerprint,
    pending_issuer: null,
    issuers: [issuer.entry],
  };
  await writeFileAtomic(dir, KEYRING_FILES.index, serializeKeyringIndex(index));
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
  await writeFileAtomic(
    dir,
    KEYRING_FILES.rootCertificate,
    encodePem(PEM_LABEL.certificate, root.der),
  );
  await writeFileAtomic(
    dir,
    KEYRING_FILES.revocationList,
    encodePem(PEM_LABEL.revocationList, listDer),
  );
  const index: KeyringIndex = {
    format: 2,
    development_root: isDevelopmentSubject(root.fields.subject),
    root_key: 'offline',
    root_fingerprint: root.fingerprint,
    active_issuer: null,
    pending_issuer: null,
    issuers: [],
  };
  await writeFileAtomic(dir, KEYRING_FILES.index, serializeKeyringIndex(index));
  await release();
}
