import { CanonryError } from '../core/index.js';
import { serialHex } from './certificate-fields.js';
import { checkIssuer, checkRootCertificate } from './check-issuer.js';
import { rawPublicKey } from './ed25519.js';
import { listDirectory, readKeyringFile } from './keyring-files.js';
import { readPrivateKey, type SigningRoot } from './keyring-state.js';
import { type IssuanceLog, parseIssuanceLog } from './offline-root-log.js';
import { parseCertificate } from './parsed-certificate.js';
import { readRevocationList } from './revocation-list-reader.js';
import type { RevocationList } from './types.js';

/** File names inside an offline root directory. */
export const ROOT_FILES = {
  key: 'root.key.pem',
  certificate: 'root.cert.pem',
  revocationList: 'revocation.crl.pem',
  log: 'issued.json',
} as const;

/** Everything an opened offline root directory holds. */
export interface OfflineRootState {
  dir: string;
  root: SigningRoot;
  log: IssuanceLog;
  revocationList: { pem: string; list: RevocationList };
}

function corrupt(message: string): CanonryError {
  return new CanonryError('KEYRING_CORRUPT', message);
}

async function loadRoot(dir: string): Promise<SigningRoot> {
  const pem = await readKeyringFile(dir, ROOT_FILES.certificate);
  const checked = checkRootCertificate(pem);
  if (!checked.ok) throw corrupt(`${ROOT_FILES.certificate}: ${checked.issues[0]?.message}`);
  const { fields, fingerprint, x509 } = checked.value;
  const keyText = await readKeyringFile(dir, ROOT_FILES.key);
  const privateKey = readPrivateKey(keyText, ROOT_FILES.key, x509.publicKey);
  return {
    pem,
    fingerprint,
    subject: fields.subject,
    notAfter: fields.notAfter,
    publicKey: x509.publicKey,
    privateKey,
  };
}

/** Each logged certificate must be the root's, and match what the log says about it. */
function checkLog(log: IssuanceLog, root: SigningRoot): void {
  if (log.root_fingerprint !== root.fingerprint) {
    throw corrupt(`${ROOT_FILES.log} belongs to another root`);
  }
  for (const entry of log.issued) {
    const parsed = parseCertificate(entry.certificate);
    const chain = checkIssuer(entry.certificate, root.pem);
    const matches =
      parsed !== undefined &&
      chain.ok &&
      parsed.fingerprint === entry.fingerprint &&
      serialHex(parsed.fields.serial) === entry.serial &&
      rawPublicKey(chain.value.publicKey).toString('base64url') === entry.public_key;
    if (!matches) throw corrupt(`${ROOT_FILES.log}: the entry for ${entry.fingerprint} is wrong`);
  }
}

/**
 * Opens an offline root directory as hostile input: the root must be a self-signed Ed25519 CA
 * with its key, the list signed by it, and the issuance log consistent with both. A serial the
 * list names but the log does not yet mark is an interrupted revoke (the list is written first).
 */
export async function loadOfflineRoot(dir: string): Promise<OfflineRootState> {
  const names = await listDirectory(dir);
  if (names === undefined || names.length === 0) {
    throw new CanonryError('KEYRING_MISSING', `no offline root in ${dir}`);
  }
  if (!names.includes(ROOT_FILES.log)) throw corrupt(`${dir} has no ${ROOT_FILES.log}`);
  const root = await loadRoot(dir);
  const log = parseIssuanceLog(await readKeyringFile(dir, ROOT_FILES.log));
  checkLog(log, root);
  const pem = await readKeyringFile(dir, ROOT_FILES.revocationList);
  const read = readRevocationList(pem, root);
  if (!read.ok) throw corrupt(`${ROOT_FILES.revocationList}: ${read.issues[0]?.message}`);
  const listed = new Map(read.value.entries.map((e) => [e.serialNumber, e.revokedAt]));
  for (const entry of log.issued) {
    const revokedAt = listed.get(entry.serial);
    if (revokedAt !== undefined && entry.revoked_at === null) {
      entry.revoked_at = revokedAt.toISOString();
    }
    if (revokedAt === undefined && entry.revoked_at !== null) {
      throw corrupt(`${entry.fingerprint}: ${ROOT_FILES.log} and the revocation list disagree`);
    }
  }
  return { dir, root, log, revocationList: { pem, list: read.value } };
}
