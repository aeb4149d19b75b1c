import type { KeyObject } from 'node:crypto';
import { ED25519_ALGORITHM, OID, PEM_LABEL } from './asn1-constants.js';
import { authorityKeyIdentifier, extension, signStructure } from './certificate-builder.js';
import { explicit, integer, sequence, time } from './der-writer.js';
import { encodePem } from './pem.js';
import type { RevocationList } from './types.js';

/** One revoked certificate. */
export interface RevokedEntry {
  serial: bigint;
  revokedAt: Date;
}

/** The root as the signer of a revocation list. */
export interface ListAuthority {
  subject: Buffer;
  notAfter: Date;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/**
 * Creates a v2 X.509 CRL signed by the root (RFC 5280 §5). nextUpdate is the root's expiry: the
 * list stays authoritative until a list with a larger CRL number replaces it.
 */
export function createRevocationList(
  crlNumber: bigint,
  entries: readonly RevokedEntry[],
  root: ListAuthority,
  now: Date,
): string {
  const revoked = entries.map((entry) => sequence(integer(entry.serial), time(entry.revokedAt)));
  const tbs = sequence(
    integer(1n), // v2
    ED25519_ALGORITHM,
    root.subject,
    time(now),
    time(root.notAfter),
    ...(revoked.length > 0 ? [sequence(...revoked)] : []),
    explicit(
      0,
      sequence(
        authorityKeyIdentifier(root.publicKey),
        extension(OID.crlNumber, false, integer(crlNumber)),
      ),
    ),
  );
  return encodePem(PEM_LABEL.revocationList, signStructure(tbs, root.privateKey));
}

/** The list that supersedes `previous`: its entries plus `serialNumber`, with CRL number + 1. */
export function nextRevocationList(
  previous: RevocationList,
  serialNumber: string,
  root: ListAuthority,
  now: Date,
): string {
  const entries = [...previous.entries, { serialNumber, revokedAt: now }].map((entry) => ({
    serial: BigInt(`0x${entry.serialNumber}`),
    revokedAt: entry.revokedAt,
  }));
  return createRevocationList(previous.number + 1n, entries, root, now);
}
