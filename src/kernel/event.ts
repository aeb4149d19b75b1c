import { type ContentHash, contentHash, parseContentHash } from '../core/index.js';
import { type SignedDocument, type Signer, signDocument } from '../trust/index.js';
import type { Verdict } from './verdict.js';

/** The type tag every conformance event carries; verification refuses any other. */
export const CONFORMANCE_EVENT_TYPE = 'tcp-ap/conformance-event';

/** What a conformance event says, before the issuer block and signature are added. */
export interface ConformanceEventClaims {
  readonly type: typeof CONFORMANCE_EVENT_TYPE;
  readonly v: 1;
  readonly protocol: {
    readonly hash: ContentHash;
    readonly slug: string;
    readonly version: string;
  };
  readonly artifact_hash: ContentHash;
  readonly generation_metadata_hash: ContentHash;
  readonly conformant: true;
  readonly label: string;
}

/**
 * A signed, self-contained record of one conformant resolution (TCP/AP §4.3, §7). It carries the
 * issuer certificate so a relying party needs only the pinned root, and no clock, so the same inputs
 * always give byte-identical events. The signature is Ed25519 over the RFC 8785 bytes of the event
 * without `signature`.
 */
export type ConformanceEvent = SignedDocument<ConformanceEventClaims>;

/** The metadata hash used when a caller supplies none: the content hash of `{}`. */
export const EMPTY_METADATA_HASH: ContentHash = contentHash({});

/**
 * Builds and signs the event for a conformant verdict with the general signed-document path; refuses
 * any other verdict. The kernel's hot path uses `EventEncoder`, which writes the same bytes.
 */
export function signConformanceEvent(
  verdict: Verdict,
  protocol: { readonly slug: string; readonly version: string },
  generationMetadataHash: ContentHash,
  signer: Signer,
): ConformanceEvent {
  if (verdict.class !== 'CONFORMANT' || verdict.label === null || verdict.artifactHash === null) {
    throw new TypeError('only conformant verdicts are signed');
  }
  const claims: ConformanceEventClaims = {
    type: CONFORMANCE_EVENT_TYPE,
    v: 1,
    protocol: { hash: verdict.protocolHash, slug: protocol.slug, version: protocol.version },
    artifact_hash: verdict.artifactHash,
    generation_metadata_hash: parseContentHash(generationMetadataHash, 'generation_metadata_hash'),
    conformant: true,
    label: verdict.label,
  };
  return signDocument(claims, signer);
}
