/**
 * Rotation and revocation on a keyring that holds its root key (a development keyring): the root
 * signs the new issuer or the new list right here.
 */
import { CanonryError } from '../core/index.js';
import {
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  removeFile,
  writeFileAtomic,
} from './keyring-files.js';
import { type Commit, signingRoot } from './keyring-guards.js';
import type { IndexedIssuer } from './keyring-index.js';
import { type KeyringState, mintIssuer, privateKeyPem } from './keyring-state.js';
import { nextRevocationList } from './revocation-list-builder.js';
import { readRevocationList } from './revocation-list-reader.js';

/** Mints a new active issuer; the old certificate stays, the old key is deleted. */
export async function rotateIssuer(
  state: KeyringState,
  commit: Commit,
  now: Date,
): Promise<IndexedIssuer> {
  const root = signingRoot(state, 'rotate');
  const { dir, index } = state;
  const previous = index.issuers.find((i) => i.status === 'active')!;
  const number = Math.max(...index.issuers.map((i) => i.number)) + 1;
  const minted = mintIssuer(number, root, now);
  await writeFileAtomic(dir, issuerCertificateFile(number), minted.pem);
  await writeFileAtomic(dir, issuerKeyFile(number), privateKeyPem(minted.privateKey));
  const issuers = index.issuers.map((i) =>
    i === previous ? { ...i, status: 'retired' as const } : i,
  );
  const next = {
    ...index,
    active_issuer: minted.entry.fingerprint,
    issuers: [...issuers, minted.entry],
  };
  await commit(next, (s) => {
    s.certificates.set(minted.entry.fingerprint, minted.pem);
    s.activeKey = minted.privateKey;
  });
  // The index now names the new issuer, so the retired key is never needed again.
  await removeFile(dir, issuerKeyFile(previous.number));
  return minted.entry;
}

/**
 * Revokes an issuer with a new root-signed list (CRL number + 1); revoking the active issuer
 * rotates first so signing keeps working; revoking twice is a no-op.
 */
export async function revokeIssuer(
  state: KeyringState,
  commit: Commit,
  fingerprint: string,
  now: Date,
): Promise<IndexedIssuer> {
  const root = signingRoot(state, 'revoke');
  const target = state.index.issuers.find((i) => i.fingerprint === fingerprint);
  if (target === undefined) {
    throw new CanonryError('UNKNOWN_ISSUER', 'no issuer with that fingerprint in this keyring');
  }
  if (target.status === 'revoked') return target;
  if (target.status === 'active') await rotateIssuer(state, commit, now);
  const { dir, revocationList } = state;
  const pem = nextRevocationList(revocationList.list, target.serial, root, now);
  const read = readRevocationList(pem, root);
  if (!read.ok) throw new CanonryError('INTERNAL', 'generated an unreadable revocation list');
  // The list is written before the index: a crash in between leaves a listed issuer that the
  // loader treats as revoked, never an index claiming a revocation the signed list lacks.
  await writeFileAtomic(dir, KEYRING_FILES.revocationList, pem);
  const index = state.index;
  const revoked: IndexedIssuer = { ...target, status: 'revoked' };
  const issuers = index.issuers.map((i) => (i.fingerprint === fingerprint ? revoked : i));
  await commit({ ...index, issuers }, (s) => {
    s.revocationList = { pem, list: read.value };
  });
  return revoked;
}
