import { CanonryError, type ContentHash } from '../core/index.js';
import { serialHex } from './certificate-fields.js';
import { checkIssuer } from './check-issuer.js';
import {
  ISSUER_KEY_FILE,
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  keysDirectory,
  listDirectory,
  readKeyringFile,
  removeFile,
} from './keyring-files.js';
import { type KeyringIndex, parseKeyringIndex } from './keyring-index.js';
import { type KeyringState, type RootMaterial, readPrivateKey } from './keyring-state.js';
import { parseCertificate } from './parsed-certificate.js';
import { readRevocationList } from './revocation-list-reader.js';

function corrupt(message: string): CanonryError {
  return new CanonryError('KEYRING_CORRUPT', message);
}

async function loadRoot(dir: string, index: KeyringIndex): Promise<RootMaterial> {
  const pem = await readKeyringFile(dir, KEYRING_FILES.rootCertificate);
  const root = parseCertificate(pem);
  if (root === undefined) throw corrupt(`${KEYRING_FILES.rootCertificate} is not a certificate`);
  if (root.fingerprint !== index.root_fingerprint) {
    throw corrupt(
      `${KEYRING_FILES.rootCertificate} does not match root_fingerprint in keyring.json`,
    );
  }
  const keyText = await readKeyringFile(dir, KEYRING_FILES.rootKey);
  const privateKey = readPrivateKey(keyText, KEYRING_FILES.rootKey, root.x509.publicKey);
  return {
    pem,
    fingerprint: root.fingerprint,
    subject: root.fields.subject,
    notAfter: root.fields.notAfter,
    publicKey: root.x509.publicKey,
    privateKey,
  };
}

async function loadIssuers(
  dir: string,
  index: KeyringIndex,
  root: RootMaterial,
): Promise<Map<ContentHash, string>> {
  const certificates = new Map<ContentHash, string>();
  for (const entry of index.issuers) {
    const name = issuerCertificateFile(entry.number);
    const pem = await readKeyringFile(dir, name);
    const parsed = parseCertificate(pem);
    if (parsed === undefined) throw corrupt(`${name} is not a certificate`);
    if (
      parsed.fingerprint !== entry.fingerprint ||
      serialHex(parsed.fields.serial) !== entry.serial
    ) {
      throw corrupt(`${name} does not match its entry in keyring.json`);
    }
    const chain = checkIssuer(pem, root.pem);
    if (!chain.ok) throw corrupt(`${name} does not chain to the root: ${chain.issues[0]?.message}`);
    certificates.set(entry.fingerprint, pem);
  }
  return certificates;
}

async function loadRevocationList(dir: string, index: KeyringIndex, root: RootMaterial) {
  const pem = await readKeyringFile(dir, KEYRING_FILES.revocationList);
  const read = readRevocationList(pem, root);
  if (!read.ok) throw corrupt(`${KEYRING_FILES.revocationList}: ${read.issues[0]?.message}`);
  const listed = new Set(read.value.entries.map((e) => e.serialNumber));
  for (const entry of index.issuers) {
    // A revoke writes the list before the index: "listed, not yet marked" is an interrupted revoke.
    if (listed.has(entry.serial) && entry.status === 'retired') entry.status = 'revoked';
    if (listed.has(entry.serial) !== (entry.status === 'revoked')) {
      throw corrupt(`issuer ${entry.number}: keyring.json and the revocation list disagree`);
    }
  }
  return { pem, list: read.value };
}

/** Deletes key files of issuers that are no longer active (left by a rotation that crashed). */
async function removeRetiredKeys(dir: string, names: readonly string[], active: number) {
  for (const name of names) {
    const match = ISSUER_KEY_FILE.exec(name);
    if (match && Number(match[1]) !== active) await removeFile(dir, name);
  }
}

/**
 * Loads and cross-checks a keyring: every file is parsed as hostile input, the index must agree
 * with the certificates, each issuer must chain to the root, keys must match their certificates
 * and the revocation list must be signed by the root.
 */
export async function loadKeyring(dataDir: string): Promise<KeyringState> {
  const dir = keysDirectory(dataDir);
  const names = await listDirectory(dir);
  if (names === undefined || names.length === 0) {
    throw new CanonryError('KEYRING_MISSING', `no keyring in ${dir}`);
  }
  if (!names.includes(KEYRING_FILES.index)) throw corrupt(`${dir} has no keyring.json`);
  const index = parseKeyringIndex(await readKeyringFile(dir, KEYRING_FILES.index));
  const root = await loadRoot(dir, index);
  const certificates = await loadIssuers(dir, index, root);
  const revocationList = await loadRevocationList(dir, index, root);
  const active = index.issuers.find((i) => i.status === 'active');
  if (active === undefined) throw corrupt('keyring.json has no active issuer');
  const activeCert = parseCertificate(certificates.get(active.fingerprint));
  if (activeCert === undefined) throw corrupt('the active issuer certificate is missing');
  const keyName = issuerKeyFile(active.number);
  const keyText = await readKeyringFile(dir, keyName);
  const activeKey = readPrivateKey(keyText, keyName, activeCert.x509.publicKey);
  await removeRetiredKeys(dir, names, active.number);
  return { dir, root, index, certificates, activeKey, revocationList };
}
