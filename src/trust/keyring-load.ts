import { CanonryError, type ContentHash } from '../core/index.js';
import { serialHex } from './certificate-fields.js';
import { checkIssuer, checkRootCertificate } from './check-issuer.js';
import { isDevelopmentSubject } from './development-root.js';
import { publicKeyFromRaw } from './ed25519.js';
import {
  ISSUER_KEY_FILE,
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  keysDirectory,
  listKeyringDirectory,
  pendingKeyFile,
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

async function loadRoot(
  dir: string,
  index: KeyringIndex,
  names: readonly string[],
): Promise<RootMaterial> {
  const pem = await readKeyringFile(dir, KEYRING_FILES.rootCertificate);
  const checked = checkRootCertificate(pem);
  if (!checked.ok) throw corrupt(`${KEYRING_FILES.rootCertificate}: ${checked.issues[0]?.message}`);
  const root = checked.value;
  if (root.fingerprint !== index.root_fingerprint) {
    throw corrupt(
      `${KEYRING_FILES.rootCertificate} does not match root_fingerprint in keyring.json`,
    );
  }
  const development = index.root_key === 'local' || isDevelopmentSubject(root.fields.subject);
  if (index.development_root !== development) {
    throw corrupt('development_root in keyring.json does not match the root');
  }
  const material: RootMaterial = {
    pem,
    fingerprint: root.fingerprint,
    subject: root.fields.subject,
    notAfter: root.fields.notAfter,
    publicKey: root.x509.publicKey,
  };
  if (index.root_key === 'offline') {
    if (names.includes(KEYRING_FILES.rootKey)) {
      throw corrupt(
        `${KEYRING_FILES.rootKey} is here but this keyring's root key is offline: ` +
          'move it back to the root machine',
      );
    }
    return material;
  }
  const keyText = await readKeyringFile(dir, KEYRING_FILES.rootKey);
  const privateKey = readPrivateKey(keyText, KEYRING_FILES.rootKey, material.publicKey);
  return { ...material, privateKey };
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

/**
 * Loads the root-signed list and reconciles the index with it. The list is written before the
 * index, so "listed, not yet marked" is an interrupted revoke or install: the signed list wins,
 * even over the active issuer. An index claiming a revocation the list lacks is corrupt.
 */
async function loadRevocationList(dir: string, index: KeyringIndex, root: RootMaterial) {
  const pem = await readKeyringFile(dir, KEYRING_FILES.revocationList);
  const read = readRevocationList(pem, root);
  if (!read.ok) throw corrupt(`${KEYRING_FILES.revocationList}: ${read.issues[0]?.message}`);
  const listed = new Set(read.value.entries.map((e) => e.serialNumber));
  for (const entry of index.issuers) {
    if (listed.has(entry.serial) && entry.status !== 'revoked') {
      if (entry.status === 'active') index.active_issuer = null;
      entry.status = 'revoked';
    }
    if (!listed.has(entry.serial) && entry.status === 'revoked') {
      throw corrupt(`issuer ${entry.number}: keyring.json and the revocation list disagree`);
    }
  }
  if (index.root_key === 'local' && index.active_issuer === null) {
    throw corrupt('the revocation list revokes the active issuer of a development keyring');
  }
  return { pem, list: read.value };
}

/** Deletes key files of issuers that are not active (left by a rotation or install that crashed). */
async function removeRetiredKeys(dir: string, names: readonly string[], index: KeyringIndex) {
  const active = index.issuers.find((i) => i.fingerprint === index.active_issuer)?.number;
  for (const name of names) {
    const match = ISSUER_KEY_FILE.exec(name);
    if (match && Number(match[1]) !== active) await removeFile(dir, name);
  }
}

async function loadActiveKey(dir: string, index: KeyringIndex, certificates: Map<string, string>) {
  const active = index.issuers.find((i) => i.fingerprint === index.active_issuer);
  if (active === undefined) return undefined;
  const activeCert = parseCertificate(certificates.get(active.fingerprint));
  if (activeCert === undefined) throw corrupt('the active issuer certificate is missing');
  const keyName = issuerKeyFile(active.number);
  return readPrivateKey(await readKeyringFile(dir, keyName), keyName, activeCert.x509.publicKey);
}

async function loadPendingKey(dir: string, index: KeyringIndex) {
  const pending = index.pending_issuer;
  if (pending === null) return undefined;
  const keyName = pendingKeyFile(pending.number);
  const publicKey = publicKeyFromRaw(Buffer.from(pending.public_key, 'base64url'));
  return readPrivateKey(await readKeyringFile(dir, keyName), keyName, publicKey);
}

/**
 * Loads and cross-checks a keyring: every file is parsed as hostile input, the index must agree
 * with the certificates, each issuer must chain to the root, keys must match their certificates
 * (or, for a pending issuer, the index), the root key must be here exactly when the index says
 * so, and the revocation list must be signed by the root.
 */
export async function loadKeyring(dataDir: string): Promise<KeyringState> {
  const dir = keysDirectory(dataDir);
  const names = await listKeyringDirectory(dir);
  if (names === undefined || names.length === 0) {
    throw new CanonryError('KEYRING_MISSING', `no keyring in ${dir}`);
  }
  if (!names.includes(KEYRING_FILES.index)) throw corrupt(`${dir} has no keyring.json`);
  const index = parseKeyringIndex(await readKeyringFile(dir, KEYRING_FILES.index));
  const root = await loadRoot(dir, index, names);
  const certificates = await loadIssuers(dir, index, root);
  const revocationList = await loadRevocationList(dir, index, root);
  const activeKey = await loadActiveKey(dir, index, certificates);
  const pendingKey = await loadPendingKey(dir, index);
  await removeRetiredKeys(dir, names, index);
  return { dir, root, index, certificates, activeKey, pendingKey, revocationList };
}
