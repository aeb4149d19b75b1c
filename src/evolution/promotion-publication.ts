import { fail, ok, type Result } from '../core/index.js';
import {
  type Signer,
  signDocument,
  type TrustAnchor,
  type TrustedIssuer,
  verifyDocumentSignature,
} from '../trust/index.js';
import { artifactAddress } from './promotion-machine.js';
import type { PromotionCandidate, Publication, PublicationClaims } from './promotion-types.js';

/** Why a publication was refused (always PUBLICATION_INVALID, with the reason). */
export interface PublicationIssue {
  readonly code: 'PUBLICATION_INVALID';
  readonly message: string;
}

/**
 * Publishes a candidate: its address (`sha256:` over the artifact's RFC 8785 bytes) bound to the
 * promotion and signed Ed25519 by the node's issuer, with the issuer certificate, so it verifies
 * from the pinned root alone. No clock: the same candidate and issuer give the same bytes.
 */
export function publishCandidate(candidate: PromotionCandidate, signer: Signer): Publication {
  const claims: PublicationClaims = {
    type: 'canonry/promotion-publication',
    v: 1,
    promotion_id: candidate.promotion_id,
    artifact_kind: candidate.artifact_kind,
    address: artifactAddress(candidate),
    baseline: candidate.baseline,
  };
  return signDocument(claims, signer);
}

/**
 * Verifies a publication against its candidate offline: signed (an issuer and signature block),
 * the issuer chains to the pinned root and is not revoked, the signature covers every byte, and it
 * addresses exactly this candidate's artifact for this promotion. Nothing here throws.
 */
export function verifyPublication(
  input: unknown,
  candidate: PromotionCandidate,
  anchor: TrustAnchor,
): Result<TrustedIssuer, PublicationIssue> {
  const refuse = (message: string) =>
    fail<PublicationIssue>({ code: 'PUBLICATION_INVALID', message });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return refuse('a publication is a signed JSON object');
  }
  const doc = input as Record<string, unknown>;
  if (doc.signature === undefined || doc.issuer === undefined)
    return refuse('the publication is unsigned');
  if (doc.type !== 'canonry/promotion-publication' || doc.v !== 1) {
    return refuse('not a canonry promotion publication (type, v)');
  }
  const signed = verifyDocumentSignature(doc, anchor);
  if (!signed.ok) return refuse(`the signature does not verify: ${signed.issues[0]!.message}`);
  if (doc.promotion_id !== candidate.promotion_id) return refuse('it publishes another promotion');
  if (doc.artifact_kind !== candidate.artifact_kind || doc.baseline !== candidate.baseline) {
    return refuse("its artifact kind or baseline is not the candidate's");
  }
  if (doc.address !== artifactAddress(candidate)) {
    return refuse("its address is not the SHA-256 of the artifact's canonical bytes");
  }
  if (Object.keys(doc).length !== 8)
    return refuse('it carries members a publication does not have');
  return ok(signed.value);
}
