import { type ContentHash, LruCache, type Result } from '../core/index.js';
import {
  certificateFingerprint,
  checkIssuer,
  type TrustAnchor,
  type TrustedIssuer,
  type TrustIssue,
  verifyEd25519,
  withinValidity,
} from '../trust/index.js';
import type { CognitiveAsset } from './asset-types.js';
import type { QualifiedEvent } from './event-types.js';
import { type EvolutionIssue, refuse } from './issues.js';
import { type ParsedQualifiedEvent, parseQualifiedEvent } from './parse-event.js';
import { effectivePolicyHash, sourcePolicyHash } from './policy-hash.js';
import { type ContextPolicy, resolveGovernance } from './resolve-governance.js';
import { eventBytes } from './sign-event.js';
import { widerField } from './within.js';

/** The pinned root (and list), and certificates for events that do not carry their own. */
export interface EventTrustAnchor extends TrustAnchor {
  readonly certificates?: readonly string[];
}

/**
 * What a receiving side may add: the source assets the event names (and the request, tenant and
 * deployment policies), to check that the event is bound to their policies and is no wider.
 */
export interface EventSources {
  readonly sources: readonly CognitiveAsset[];
  readonly context?: readonly ContextPolicy[];
}

/** A verified event, and whether the pinned root is a development root (not production-grade). */
export type QualifiedEventVerification =
  | {
      readonly ok: true;
      readonly value: ParsedQualifiedEvent;
      readonly developmentRoot: boolean;
    }
  | { readonly ok: false; readonly issues: readonly EvolutionIssue[] };

type Fail = { readonly ok: false; readonly issues: readonly EvolutionIssue[] };

/**
 * Verifies qualified cognitive events offline from a pinned root. The chain check of a certificate
 * reads no clock, so each certificate's is kept (a receiving side verifying many events checks each
 * chain once); its validity window is judged for every event.
 */
export class QualifiedEventVerifier {
  readonly #anchor: EventTrustAnchor;
  readonly #issuers = new LruCache<string, Result<TrustedIssuer, TrustIssue>>(64);

  constructor(anchor: EventTrustAnchor) {
    this.#anchor = anchor;
  }

  /**
   * Schema (as {@link parseQualifiedEvent}), `policy_hash` recomputed from the governance members,
   * provenance naming every source, the certificate the signing identity names and its chain to the
   * pinned root (and the list), valid now (or at the anchor's `at`) and not expired before
   * `created_at`, the Ed25519 signature over the canonical bytes; with `sources`,
   * that they are exactly the event's, that its source policy hashes are theirs, and that its
   * governance is within what they resolve to. Every field is hostile input; nothing here throws.
   */
  verify(input: unknown, sources?: EventSources): QualifiedEventVerification {
    const parsed = parseQualifiedEvent(input);
    if (!parsed.ok) return parsed;
    const { event } = parsed.value;
    if (effectivePolicyHash(event) !== event.policy_hash) {
      return refuse(
        'POLICY_HASH_MISMATCH',
        'the governance members do not hash to policy_hash: the event was re-scoped after it was made',
        'policy_hash',
      );
    }
    const derived = new Set(event.provenance.derived_from);
    const missing = event.source_assets.find((id) => !derived.has(id));
    if (missing !== undefined) {
      return refuse(
        'SOURCE_POLICY_MISMATCH',
        `provenance.derived_from drops source ${missing}`,
        'provenance.derived_from',
      );
    }
    const issuer = this.#issuer(event);
    if (!issuer.ok) return issuer;
    const expired = this.#outsideValidity(event, issuer.value);
    if (expired !== null) return expired;
    const signature = Buffer.from(event.signature, 'base64url');
    if (
      signature.toString('base64url') !== event.signature ||
      !verifyEd25519(issuer.value.publicKey, eventBytes(event), signature)
    ) {
      return refuse(
        'SIGNATURE_INVALID',
        'the signature does not verify with the signing identity',
        'signature',
      );
    }
    if (sources !== undefined) {
      const linked = checkSources(event, sources);
      if (linked !== null) return linked;
    }
    return { ok: true, value: parsed.value, developmentRoot: issuer.value.developmentRoot };
  }

  /**
   * The issuer must be valid at the verifier's instant (the anchor's `at`, else now), and must not
   * have expired before the event's `created_at`: that is the time of what the event records, so it
   * was signed then or later (the coordinator signs a backlog after the fact, maybe by an issuer made
   * since, which is why `created_at` before the issuer's notBefore is no fault).
   */
  #outsideValidity(event: QualifiedEvent, issuer: TrustedIssuer): Fail | null {
    const at = this.#anchor.at === undefined ? new Date() : this.#anchor.at;
    if (at !== null && !withinValidity(issuer, at)) {
      return refuse(
        'CHAIN_INVALID',
        'the signing certificate or the root is not valid at the time of verification',
        'signing_certificate',
      );
    }
    if (event.created_at > issuer.validUntil.getTime()) {
      return refuse(
        'CHAIN_INVALID',
        'the signing certificate had expired before created_at: the event was signed after it expired',
        'created_at',
      );
    }
    return null;
  }

  #issuer(event: QualifiedEvent): Result<TrustedIssuer, EvolutionIssue> {
    const certificate =
      event.signing_certificate ??
      this.#anchor.certificates?.find((pem) => fingerprintOf(pem) === event.signing_identity);
    if (certificate === undefined) {
      return refuse(
        'INVALID_CERTIFICATE',
        'no certificate for the signing identity',
        'signing_identity',
      );
    }
    let checked = this.#issuers.get(certificate);
    if (checked === undefined) {
      checked = checkIssuer(certificate, this.#anchor.root, this.#anchor.revocationList);
      this.#issuers.set(certificate, checked);
    }
    if (!checked.ok) {
      const issue = checked.issues[0]!;
      return refuse(issue.code, issue.message, 'signing_certificate');
    }
    if (checked.value.fingerprint !== event.signing_identity) {
      return refuse(
        'HASH_MISMATCH',
        'signing_identity is not the fingerprint of the certificate',
        'signing_identity',
      );
    }
    return checked;
  }
}

/**
 * Verifies one event offline from the pinned root: {@link QualifiedEventVerifier.verify} without a
 * cache. A receiving side verifying many events keeps one verifier.
 */
export function verifyQualifiedEvent(
  input: unknown,
  anchor: EventTrustAnchor,
  sources?: EventSources,
): QualifiedEventVerification {
  return new QualifiedEventVerifier(anchor).verify(input, sources);
}

function checkSources(event: QualifiedEvent, given: EventSources): Fail | null {
  const ids = [...new Set(given.sources.map((s) => s.asset_id))].sort();
  if (
    ids.length !== event.source_assets.length ||
    ids.some((id, i) => id !== event.source_assets[i])
  ) {
    return refuse(
      'SOURCE_POLICY_MISMATCH',
      'the sources given are not the sources the event names',
      'source_assets',
    );
  }
  const listed = new Set<ContentHash>(event.source_policy_hashes);
  const unbound = given.sources.find((s) => !listed.has(sourcePolicyHash(s.governance)));
  if (unbound !== undefined) {
    return refuse(
      'SOURCE_POLICY_MISMATCH',
      `the policy of ${unbound.asset_id} is not one the event was resolved from`,
      'source_policy_hashes',
    );
  }
  const resolved = resolveGovernance(
    given.sources,
    given.context ? { context: given.context } : {},
  );
  if (!resolved.ok) return resolved;
  if (given.context !== undefined) {
    const expected = resolved.value.source_policy_hashes;
    if (expected.length !== listed.size || expected.some((h) => !listed.has(h))) {
      return refuse(
        'SOURCE_POLICY_MISMATCH',
        'source_policy_hashes are not the policies given',
        'source_policy_hashes',
      );
    }
  }
  const wider = widerField(event, resolved.value.governance);
  return wider === null
    ? null
    : refuse('GOVERNANCE_WIDENED', `the event's ${wider} is wider than its sources allow`, wider);
}

function fingerprintOf(pem: string): ContentHash | undefined {
  try {
    return certificateFingerprint(pem);
  } catch {
    return undefined;
  }
}
