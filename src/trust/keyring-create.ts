import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CanonryError } from '../core/index.js';
import { PEM_LABEL } from './asn1-constants.js';
import { checkRootCertificate } from './check-issuer.js';
import { DEVELOPMENT_ROOT_NAME, isDevelopmentSubject } from './development-root.js';
import {
  ensurePrivateDirectory,
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  keysDirectory,
  listDirectory,
  removeFile,
  writeFileAtomic,
} from './keyring-files.js';
import { type KeyringIndex, serializeKeyringIndex } from './keyring-index.js';
import { mintIssuer, mintRoot, privateKeyPem } from './keyring-state.js';
import { decodePem, encodePem } from './pem.js';
import { createRevocationList } from './revocation-list-builder.js';
import { readRevocationList } from './revocation-list-reader.js';
import { unwrap } from './unwrap.js';

const INIT_LOCK = '.init.lock';

/** The public material of a root kept offline: what `keys init --root-cert --crl` pins. */
export interface OfflineRootMaterial {
  /** The root certificate (PEM). */
  certificatePem: string;
  /** A revocation list (PEM) signed by that root, usually its first (number 1, empty). */
  revocationListPem: string;
}

function exists(dir: string): CanonryError {
  return new CanonryError('KEYRING_EXISTS', `${dir} already holds a keyring (or part of one)`);
}

/**
 * Claims an empty `<dataDir>/keys/` (0700) for a new keyring: an exclusive lock file keeps two
 * concurrent inits from interleaving. Returns the directory; the caller removes the lock last.
 */
async function claimKeysDirectory(dataDir: string): Promise<string> {
  const dir = keysDirectory(dataDir);
  const before = await listDirectory(dir);
  if (before !== undefined && before.length > 0) throw exists(dir);
  await ensurePrivateDirectory(dir);
  let lock: Awaited<ReturnType<typeof open>>;
  try {
    lock = await open(join(dir, INIT_LOCK), 'wx', 0o600);
  } catch {
    throw exists(dir);
  }
  await lock.close();
  const names = await listDirectory(dir);
  if (names?.length !== 1) throw exists(dir);
  return dir;
}

/**
 * Writes a development keyring into `<dataDir>/keys/`: a root minted here (its key beside the
 * issuer's, its subject `canonry development root`), issuer 1 and an empty revocation list
 * (number 1), with `keyring.json` written last so a crash never leaves a half keyring that opens.
 */
export async function createKeyring(dataDir: string, now: Date): Promise<void> {
  const dir = await claimKeysDirectory(dataDir);
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
  await removeFile(dir, INIT_LOCK);
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
  const dir = await claimKeysDirectory(dataDir);
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
  await removeFile(dir, INIT_LOCK);
}
