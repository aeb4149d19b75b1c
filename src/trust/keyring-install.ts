/**
 * The server's half of the offline-root ceremony: a pending issuer key and its signing request,
 * installing the certificate the root machine signed, and installing a newer root-signed list.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CanonryError } from '../core/index.js';
import { PEM_LABEL } from './asn1-constants.js';
import { checkIssuerProfile } from './certificate-profile.js';
import { createCertificateRequest } from './certificate-request.js';
import { checkIssuer, withinValidity } from './check-issuer.js';
import { issuerCommonName } from './development-root.js';
import { rawPublicKey } from './ed25519.js';
import {
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  listDirectory,
  PENDING_KEY_FILE,
  pendingKeyFile,
  removeFile,
  writeFileAtomic,
} from './keyring-files.js';
import { type Commit, requireOfflineRoot } from './keyring-guards.js';
import type { IndexedIssuer } from './keyring-index.js';
import { issuerEntry, type KeyringState, privateKeyPem } from './keyring-state.js';
import { parseCertificate } from './parsed-certificate.js';
import { decodePem, encodePem } from './pem.js';
import { readRevocationList } from './revocation-list-reader.js';
import type { IssuerRequest } from './types.js';
import { unwrap } from './unwrap.js';

/** Removes pending key files no index names (left by a request or install that crashed). */
async function removeOrphanPendingKeys(state: KeyringState): Promise<void> {
  const keep = state.index.pending_issuer?.number;
  for (const name of (await listDirectory(state.dir)) ?? []) {
    const match = PENDING_KEY_FILE.exec(name);
    if (match && Number(match[1]) !== keep) await removeFile(state.dir, name);
  }
}

/**
 * The signing request for the pending issuer key, generating the key (0600, in the keys
 * directory) when none is pending. Asking again gives the same request for the same key, unless
 * `fresh` discards the pending key first (its request was lost, refused or revoked).
 */
export async function requestIssuer(
  state: KeyringState,
  commit: Commit,
  now: Date,
  fresh: boolean,
): Promise<IssuerRequest> {
  requireOfflineRoot(state);
  if (fresh && state.index.pending_issuer !== null) {
    await commit({ ...state.index, pending_issuer: null }, (s) => {
      s.pendingKey = undefined;
    });
  }
  const { dir, index } = state;
  const pending = index.pending_issuer;
  if (pending !== null && state.pendingKey !== undefined) {
    const keys = { privateKey: state.pendingKey, publicKey: createPublicKey(state.pendingKey) };
    const pem = createCertificateRequest(issuerCommonName(pending.number), keys);
    return { number: pending.number, certificateRequestPem: pem };
  }
  const number = Math.max(0, ...index.issuers.map((i) => i.number)) + 1;
  const keys = generateKeyPairSync('ed25519');
  await writeFileAtomic(dir, pendingKeyFile(number), privateKeyPem(keys.privateKey));
  const entry = {
    number,
    public_key: rawPublicKey(keys.publicKey).toString('base64url'),
    created_at: now.toISOString(),
  };
  await commit({ ...index, pending_issuer: entry }, (s) => {
    s.pendingKey = keys.privateKey;
  });
  await removeOrphanPendingKeys(state);
  const pem = createCertificateRequest(issuerCommonName(number), keys);
  return { number, certificateRequestPem: pem };
}

function mismatch(message: string): CanonryError {
  return new CanonryError('PENDING_KEY_MISMATCH', message);
}

/**
 * Installs the certificate the offline root signed for the pending key and makes it the active
 * issuer; the previous one is retired and its key deleted. Refused: INVALID_CERTIFICATE (junk, not
 * the issuer profile), CHAIN_INVALID (another root, a CA, expired or not valid yet), ISSUER_REVOKED,
 * PENDING_KEY_MISMATCH (no pending key, or a certificate for another key).
 */
export async function installIssuer(
  state: KeyringState,
  commit: Commit,
  certificatePem: string,
  now: Date,
): Promise<IndexedIssuer> {
  requireOfflineRoot(state);
  const { dir, index, root } = state;
  const trusted = unwrap(checkIssuer(certificatePem, root.pem, state.revocationList.pem));
  const parsed = parseCertificate(certificatePem)!;
  if (parsed.fields.notAfter.getTime() < now.getTime()) {
    throw new CanonryError('CHAIN_INVALID', 'the issuer certificate has expired');
  }
  // Made on a root machine whose clock runs ahead (or the root itself not valid yet): installed, it
  // would sign events no relying party verifies until its window opens.
  if (!withinValidity(trusted, now)) {
    throw new CanonryError(
      'CHAIN_INVALID',
      `the issuer certificate (or its root) is not valid yet: from ${trusted.validFrom.toISOString()}`,
    );
  }
  unwrap(checkIssuerProfile(parsed.der));
  const pending = index.pending_issuer;
  if (pending === null || state.pendingKey === undefined) {
    throw mismatch('no issuer key is pending here: run `canonry keys csr` first');
  }
  if (rawPublicKey(trusted.publicKey).toString('base64url') !== pending.public_key) {
    throw mismatch(
      `the certificate is for another key than pending issuer ${pending.number}: ` +
        "sign this keyring's own request (`canonry keys csr`)",
    );
  }
  const pem = encodePem(PEM_LABEL.certificate, parsed.der);
  const entry = issuerEntry(pending.number, pem, now);
  if (index.issuers.some((i) => i.serial === entry.serial)) {
    throw new CanonryError('INVALID_CERTIFICATE', 'an issuer with that serial is already here');
  }
  const previous = index.issuers.find((i) => i.status === 'active');
  const key = state.pendingKey;
  await writeFileAtomic(dir, issuerCertificateFile(entry.number), pem);
  await writeFileAtomic(dir, issuerKeyFile(entry.number), privateKeyPem(key));
  const issuers = index.issuers.map((i) =>
    i === previous ? { ...i, status: 'retired' as const } : i,
  );
  const next = {
    ...index,
    active_issuer: entry.fingerprint,
    pending_issuer: null,
    issuers: [...issuers, entry],
  };
  await commit(next, (s) => {
    s.certificates.set(entry.fingerprint, pem);
    s.activeKey = key;
    s.pendingKey = undefined;
  });
  await removeOrphanPendingKeys(state);
  if (previous !== undefined) await removeFile(dir, issuerKeyFile(previous.number));
  return entry;
}

/**
 * Installs a newer root-signed revocation list: it must verify against the pinned root, carry a
 * larger CRL number and keep every serial the installed list revokes (STALE_REVOCATION_LIST).
 * Issuers it lists are marked revoked; when that includes the active issuer, its key is deleted and
 * the keyring has no active issuer until a new one is installed. Returns the newly revoked.
 */
export async function installRevocationList(
  state: KeyringState,
  commit: Commit,
  listPem: string,
): Promise<{ number: bigint; revoked: IndexedIssuer[] }> {
  requireOfflineRoot(state);
  const { dir, index, root, revocationList: current } = state;
  const read = unwrap(readRevocationList(listPem, root));
  if (read.number <= current.list.number) {
    throw new CanonryError(
      'STALE_REVOCATION_LIST',
      `CRL number ${read.number} is not above the installed ${current.list.number}`,
    );
  }
  const listed = new Set(read.entries.map((e) => e.serialNumber));
  const dropped = current.list.entries.find((e) => !listed.has(e.serialNumber));
  if (dropped !== undefined) {
    throw new CanonryError(
      'STALE_REVOCATION_LIST',
      `the list drops revoked serial ${dropped.serialNumber}; revocation is permanent`,
    );
  }
  const pem = encodePem(PEM_LABEL.revocationList, decodePem(listPem, PEM_LABEL.revocationList)!);
  const revoked = index.issuers.filter((i) => listed.has(i.serial) && i.status !== 'revoked');
  const activeRevoked = revoked.find((i) => i.status === 'active');
  const issuers = index.issuers.map((i) =>
    revoked.includes(i) ? { ...i, status: 'revoked' as const } : i,
  );
  // The list is written before the index; the loader finishes an install cut short in between.
  await writeFileAtomic(dir, KEYRING_FILES.revocationList, pem);
  const next = { ...index, issuers, active_issuer: activeRevoked ? null : index.active_issuer };
  await commit(next, (s) => {
    s.revocationList = { pem, list: read };
    if (activeRevoked) s.activeKey = undefined;
  });
  if (activeRevoked) await removeFile(dir, issuerKeyFile(activeRevoked.number));
  return {
    number: read.number,
    revoked: revoked.map((i) => ({ ...i, status: 'revoked' as const })),
  };
}
