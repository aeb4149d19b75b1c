import { ok, type Result } from '../core/index.js';
import type { Signer } from '../trust/index.js';
import type { CognitiveAsset } from './asset-types.js';
import { eventText } from './event-text.js';
import type { QualifiedEvent, QualifiedEventClaims } from './event-types.js';
import { type EvolutionIssue, refuse } from './issues.js';
import { type EventDescription, readDescription } from './parse-event.js';
import { FieldError, idList, record } from './read-fields.js';
import { type ResolveOptions, resolveGovernance } from './resolve-governance.js';
import { EVENT_SCHEMA_VERSION } from './schema-version.js';

/** What the caller says about an event; governance, sources and hashes come from resolution. */
export type EventDraft = EventDescription & {
  /** Provenance beyond what the sources carry. */
  readonly execution_claims?: readonly string[];
  readonly verification_results?: readonly string[];
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The claims without what signing adds. */
export type UnsignedClaims = Omit<QualifiedEventClaims, 'signing_identity' | 'signing_certificate'>;

/** The bytes an event's signature covers: RFC 8785 of every member but `signature` (which may be
 * present: it is left out). */
export function eventBytes(claims: QualifiedEventClaims): Buffer {
  return Buffer.from(eventText(claims), 'utf8');
}

/**
 * Signs claims with the node's issuer (the keyring's signer, as the kernel signs conformance
 * events): `signing_identity` is the issuer certificate's fingerprint, `signing_certificate` the
 * certificate, so the event verifies from the pinned root alone; Ed25519 over {@link eventBytes}.
 * No clock is read: the same claims and issuer give byte-identical events.
 */
export function signQualifiedEvent(claims: UnsignedClaims, signer: Signer): QualifiedEvent {
  const event: Mutable<QualifiedEvent> = {
    ...claims,
    signing_identity: signer.fingerprint,
    signing_certificate: signer.certificatePem,
    signature: '',
  };
  event.signature = signer.sign(eventBytes(event)).toString('base64url');
  return event;
}

/** What assembling needs besides the draft and the sources. */
export interface AssembleOptions extends ResolveOptions {
  readonly signer: Signer;
}

/**
 * Assembles one event (GCS "Coordination Flow", step 4): reads the draft as untrusted input
 * (`INVALID_QUALIFIED_EVENT` naming the field), resolves the sources' governance (refusing an
 * empty, contradictory or unrepresentable result), binds the sources and their policy hashes, and
 * signs as {@link signQualifiedEvent} does. Every member is either read by the parser's own readers or made by resolution, so the
 * event parses as it is handed out (a test holds it to that).
 */
export function assembleQualifiedEvent(
  draft: EventDraft,
  sources: readonly CognitiveAsset[],
  options: AssembleOptions,
): Result<QualifiedEvent, EvolutionIssue> {
  let description: EventDescription;
  let claims: readonly string[] | undefined;
  let results: readonly string[] | undefined;
  try {
    const fields = record(draft, '');
    description = readDescription(fields);
    claims = draft.execution_claims && idList(draft.execution_claims, 'execution_claims');
    results =
      draft.verification_results && idList(draft.verification_results, 'verification_results');
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return refuse('INVALID_QUALIFIED_EVENT', `${error.path}: ${error.message}`, error.path);
  }
  const resolved = resolveGovernance(sources, options);
  if (!resolved.ok) return resolved;
  const { governance, provenance } = resolved.value;
  const event: Mutable<QualifiedEvent> = {
    schema_version: EVENT_SCHEMA_VERSION,
    ...description,
    source_assets: resolved.value.source_assets,
    source_policy_hashes: resolved.value.source_policy_hashes,
    policy_hash: resolved.value.policy_hash,
    ...governance,
    provenance: {
      derived_from: provenance.derived_from,
      execution_claims: union(provenance.execution_claims, claims),
      verification_results: union(provenance.verification_results, results),
    },
    signing_identity: options.signer.fingerprint,
    signing_certificate: options.signer.certificatePem,
    signature: '',
  };
  event.signature = options.signer.sign(eventBytes(event)).toString('base64url');
  return ok(event);
}

function union(a: readonly string[], b: readonly string[] | undefined): readonly string[] {
  return b === undefined || b.length === 0 ? a : [...new Set([...a, ...b])].sort();
}
