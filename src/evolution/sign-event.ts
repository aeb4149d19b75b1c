import { fail, ok, type Result } from '../core/index.js';
import { documentBytes, type Signer } from '../trust/index.js';
import type { CognitiveAsset } from './asset-types.js';
import type { QualifiedEvent, QualifiedEventClaims } from './event-types.js';
import type { EvolutionIssue } from './issues.js';
import { parseQualifiedEvent } from './parse-event.js';
import { type ResolveOptions, resolveGovernance } from './resolve-governance.js';
import { EVENT_SCHEMA_VERSION } from './schema-version.js';

/** What the caller says about an event; governance, sources and hashes come from resolution. */
export type EventDraft = Pick<
  QualifiedEventClaims,
  | 'event_id'
  | 'request_id'
  | 'session_id'
  | 'event_type'
  | 'model_and_expert_versions'
  | 'adaptive_artifact_refs'
  | 'tenant_scope'
  | 'owner_id'
  | 'creator'
  | 'source_node'
  | 'outcome'
  | 'scores'
  | 'created_at'
  | 'replay'
> & {
  /** Provenance beyond what the sources carry. */
  readonly execution_claims?: readonly string[];
  readonly verification_results?: readonly string[];
};

/** The claims without what signing adds. */
export type UnsignedClaims = Omit<QualifiedEventClaims, 'signing_identity' | 'signing_certificate'>;

/** The bytes an event's signature covers: RFC 8785 of every member but `signature`. */
export function eventBytes(claims: QualifiedEventClaims): Buffer {
  return documentBytes(claims);
}

/**
 * Signs claims with the node's issuer (the keyring's signer, as the kernel signs conformance
 * events): `signing_identity` is the issuer certificate's fingerprint, `signing_certificate` the
 * certificate, so the event verifies from the pinned root alone; Ed25519 over {@link eventBytes}.
 * No clock is read: the same claims and issuer give byte-identical events.
 */
export function signQualifiedEvent(claims: UnsignedClaims, signer: Signer): QualifiedEvent {
  const signed: QualifiedEventClaims = {
    ...claims,
    signing_identity: signer.fingerprint,
    signing_certificate: signer.certificatePem,
  };
  return { ...signed, signature: signer.sign(eventBytes(signed)).toString('base64url') };
}

/** What assembling needs besides the draft and the sources. */
export interface AssembleOptions extends ResolveOptions {
  readonly signer: Signer;
}

/**
 * Assembles one event (GCS "Coordination Flow", step 4): resolves the sources' governance (refusing
 * an empty, contradictory or unrepresentable result), binds the sources and their policy hashes,
 * signs, and reads the result back as untrusted input, so an event that would not parse is never
 * handed out.
 */
export function assembleQualifiedEvent(
  draft: EventDraft,
  sources: readonly CognitiveAsset[],
  options: AssembleOptions,
): Result<QualifiedEvent, EvolutionIssue> {
  const resolved = resolveGovernance(sources, options);
  if (!resolved.ok) return resolved;
  const { governance, provenance } = resolved.value;
  const { execution_claims, verification_results, ...fields } = draft;
  const claims: UnsignedClaims = {
    schema_version: EVENT_SCHEMA_VERSION,
    ...fields,
    source_assets: resolved.value.source_assets,
    source_policy_hashes: resolved.value.source_policy_hashes,
    policy_hash: resolved.value.policy_hash,
    ...governance,
    provenance: {
      derived_from: provenance.derived_from,
      execution_claims: union(provenance.execution_claims, execution_claims),
      verification_results: union(provenance.verification_results, verification_results),
    },
  };
  const event = signQualifiedEvent(claims, options.signer);
  const parsed = parseQualifiedEvent(event);
  return parsed.ok ? ok(parsed.value.event) : fail(...parsed.issues);
}

function union(a: readonly string[], b: readonly string[] | undefined): readonly string[] {
  return b === undefined || b.length === 0 ? a : [...new Set([...a, ...b])].sort();
}
