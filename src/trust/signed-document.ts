import {
  type ContentHash,
  canonicalize,
  fail,
  isContentHash,
  ok,
  type Result,
} from '../core/index.js';
import { checkIssuer } from './check-issuer.js';
import { verifyEd25519 } from './ed25519.js';
import { certificateFingerprint } from './parsed-certificate.js';
import type { Signer, TrustedIssuer } from './types.js';

/** The issuer block every signed document carries, so it verifies from the pinned root alone. */
export interface IssuerBlock {
  readonly fingerprint: ContentHash;
  readonly certificate: string;
}

/** An Ed25519 signature, base64url, over the RFC 8785 bytes of the document without it. */
export interface SignatureBlock {
  readonly alg: 'Ed25519';
  readonly value: string;
}

/** A JSON document signed by an issuer: the body, the issuer block and the signature. */
export type SignedDocument<T extends object> = T & {
  readonly issuer: IssuerBlock;
  readonly signature: SignatureBlock;
};

/** Why a signed document did not verify; `code` is a stable error code. */
export interface DocumentIssue {
  readonly code:
    | 'INVALID_CERTIFICATE'
    | 'CHAIN_INVALID'
    | 'ISSUER_REVOKED'
    | 'SIGNATURE_INVALID'
    | 'HASH_MISMATCH';
  readonly message: string;
}

/**
 * The pinned root and, optionally, the root-signed revocation list, and the instant the issuer (and
 * root) must be valid at. Nothing canonry signs carries the time it was signed (the same inputs give
 * the same bytes), so without `at` that instant is now: a certificate past its notAfter vouches for
 * nothing, whenever the signature claims to be from. `null` judges no window; only for a store
 * re-checking signatures it made and kept itself (a journal's own checkpoints).
 */
export interface TrustAnchor {
  readonly root: string;
  readonly revocationList?: string;
  readonly at?: Date | null;
}

/** The bytes an issuer signs: RFC 8785 canonical JSON of the document without `signature`. */
export function documentBytes(unsigned: object): Buffer {
  return Buffer.from(canonicalize(unsigned), 'utf8');
}

/**
 * Adds the signer's issuer block to `body` and signs the result. No clock is added, so the same body
 * and issuer always give byte-identical documents.
 */
export function signDocument<T extends object>(body: T, signer: Signer): SignedDocument<T> {
  const unsigned = {
    ...body,
    issuer: { fingerprint: signer.fingerprint, certificate: signer.certificatePem },
  };
  const value = signer.sign(documentBytes(unsigned)).toString('base64url');
  return { ...unsigned, signature: { alg: 'Ed25519', value } };
}

/**
 * Verifies a signed document offline: the certificate is the one its fingerprint names, it chains to
 * the pinned root, is valid at `anchor.at` (now by default) and is not revoked, and the signature
 * covers every other byte. Shape checks of the
 * body are the caller's; nothing here throws.
 */
export function verifyDocumentSignature(
  document: Record<string, unknown>,
  anchor: TrustAnchor,
): Result<TrustedIssuer, DocumentIssue> {
  const { issuer, signature, ...rest } = document;
  if (!isIssuerBlock(issuer) || !isSignatureBlock(signature)) {
    return fail({
      code: 'SIGNATURE_INVALID',
      message: 'the issuer or signature block is malformed',
    });
  }
  let fingerprint: ContentHash;
  try {
    fingerprint = certificateFingerprint(issuer.certificate);
  } catch {
    return fail({ code: 'INVALID_CERTIFICATE', message: 'the issuer certificate does not parse' });
  }
  if (fingerprint !== issuer.fingerprint) {
    return fail({
      code: 'HASH_MISMATCH',
      message: 'the issuer fingerprint does not match the certificate',
    });
  }
  const at = anchor.at === undefined ? new Date() : anchor.at;
  const chain = checkIssuer(
    issuer.certificate,
    anchor.root,
    anchor.revocationList,
    at === null ? {} : { at },
  );
  if (!chain.ok) return fail(chain.issues[0]!);
  const bytes = decodeSignature(signature.value);
  let unsignedBytes: Buffer;
  try {
    unsignedBytes = documentBytes({ ...rest, issuer });
  } catch {
    return fail({ code: 'SIGNATURE_INVALID', message: 'the document is not canonical JSON' });
  }
  if (bytes === null || !verifyEd25519(chain.value.publicKey, unsignedBytes, bytes)) {
    return fail({
      code: 'SIGNATURE_INVALID',
      message: 'the signature does not verify with the issuer key',
    });
  }
  return ok(chain.value);
}

function isIssuerBlock(value: unknown): value is IssuerBlock {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value).sort();
  const block = value as Record<string, unknown>;
  return (
    keys.length === 2 &&
    keys[0] === 'certificate' &&
    keys[1] === 'fingerprint' &&
    typeof block.certificate === 'string' &&
    isContentHash(block.fingerprint)
  );
}

function isSignatureBlock(value: unknown): value is SignatureBlock {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value).sort();
  const block = value as Record<string, unknown>;
  return (
    keys.length === 2 &&
    keys[0] === 'alg' &&
    keys[1] === 'value' &&
    block.alg === 'Ed25519' &&
    typeof block.value === 'string'
  );
}

/** Strict base64url: re-encoding must give back the same text, so no two texts decode alike. */
function decodeSignature(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]{86}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.length === 64 && bytes.toString('base64url') === text ? bytes : null;
}
