import {
  type ContentHash,
  contentHash,
  fail,
  isContentHash,
  ok,
  type Result,
} from '../core/index.js';
import { verifyDocumentSignature } from '../trust/index.js';
import { CONFORMANCE_EVENT_TYPE, type ConformanceEvent } from './event.js';
import { compileProtocol } from './protocol.js';
import { resolve } from './resolve.js';

/** Why an event failed verification; `code` is one of the stable error codes. */
export interface EventIssue {
  readonly code:
    | 'INVALID_EVENT'
    | 'SIGNATURE_INVALID'
    | 'CHAIN_INVALID'
    | 'ISSUER_REVOKED'
    | 'INVALID_CERTIFICATE'
    | 'HASH_MISMATCH';
  readonly message: string;
}

/** What a relying party brings: the pinned root and, optionally, what the event claims to bind. */
export interface VerifyEventOptions {
  /** The pinned root certificate (PEM). */
  readonly root: string;
  /** The root-signed revocation list (PEM); without it revocation is not checked. */
  readonly revocationList?: string;
  /**
   * The instant the issuer and root must be valid at; now when absent. An event carries no time of
   * its own (TCP/AP §9: the same artifact and protocol give the same event, byte for byte), so the
   * relying party says when: an event checked after its issuer expired needs the `at` it vouches for.
   */
  readonly at?: Date;
  /** The artifact the event should bind; checked against `artifact_hash`. */
  readonly artifact?: unknown;
  /** The agentic protocol the event should bind; checked against `protocol.hash`. */
  readonly protocol?: unknown;
  /** The generation-metadata hash the event should bind. */
  readonly generationMetadataHash?: string;
}

/**
 * The outcome of {@link verifyConformanceEvent}: a {@link Result} whose success also says whether
 * the pinned root is a development root (TCP/AP §10: verified, but not production-grade).
 */
export type EventVerification =
  | { readonly ok: true; readonly value: ConformanceEvent; readonly developmentRoot: boolean }
  | { readonly ok: false; readonly issues: readonly EventIssue[] };

/**
 * Verifies a conformance event offline (TCP/AP §7): its shape, that its certificate is the one it names,
 * that the certificate chains to the pinned root, is valid at `options.at` (now) and is not revoked, the Ed25519 signature over its
 * canonical bytes, and every bound hash the caller supplies. When both artifact and protocol are
 * supplied, the verdict is re-derived too: resolution is deterministic, so anyone can recompute it.
 * On success `developmentRoot` tells whether the pinned root names itself a development root.
 * Every field is hostile input; nothing here throws.
 */
export function verifyConformanceEvent(
  input: unknown,
  options: VerifyEventOptions,
): EventVerification {
  const shaped = readEvent(input);
  if (!shaped.ok) return shaped;
  const { root, revocationList } = options;
  const signed = verifyDocumentSignature(shaped.value as unknown as Record<string, unknown>, {
    root,
    ...(revocationList === undefined ? {} : { revocationList }),
    at: options.at ?? new Date(),
  });
  if (!signed.ok) return fail(signed.issues[0]!);
  const bound = checkBindings(shaped.value, options);
  return bound.ok ? { ...bound, developmentRoot: signed.value.developmentRoot } : bound;
}

function checkBindings(
  event: ConformanceEvent,
  options: VerifyEventOptions,
): Result<ConformanceEvent, EventIssue> {
  const { artifact, protocol, generationMetadataHash } = options;
  if (
    generationMetadataHash !== undefined &&
    generationMetadataHash !== event.generation_metadata_hash
  ) {
    return issue('HASH_MISMATCH', 'generation_metadata_hash does not match');
  }
  let artifactHash: ContentHash | undefined;
  if (artifact !== undefined) {
    try {
      artifactHash = contentHash(artifact);
    } catch {
      return issue('HASH_MISMATCH', 'the supplied artifact is not JSON');
    }
    if (artifactHash !== event.artifact_hash)
      return issue('HASH_MISMATCH', 'artifact_hash does not match');
  }
  if (protocol === undefined) return ok(event);
  let compiled: ReturnType<typeof compileProtocol>;
  try {
    compiled = compileProtocol(protocol);
  } catch {
    return issue('HASH_MISMATCH', 'the supplied protocol is not a valid agentic protocol');
  }
  if (compiled.hash !== event.protocol.hash)
    return issue('HASH_MISMATCH', 'protocol hash does not match');
  if (!compiled.protocol.labels.includes(event.label)) {
    return issue('HASH_MISMATCH', 'the label is not declared by the protocol');
  }
  if (artifact !== undefined) {
    const verdict = resolve(artifact, compiled);
    if (verdict.class !== 'CONFORMANT' || verdict.label !== event.label) {
      return issue('HASH_MISMATCH', 'the protocol does not resolve the artifact to this label');
    }
  }
  return ok(event);
}

const EVENT_KEYS = [
  'artifact_hash',
  'conformant',
  'generation_metadata_hash',
  'issuer',
  'label',
  'protocol',
  'signature',
  'type',
  'v',
];

function readEvent(input: unknown): Result<ConformanceEvent, EventIssue> {
  if (!isRecord(input) || !hasExactKeys(input, EVENT_KEYS)) {
    return issue('INVALID_EVENT', 'not a conformance event object');
  }
  const { protocol, issuer, signature } = input;
  const valid =
    input.type === CONFORMANCE_EVENT_TYPE &&
    input.v === 1 &&
    input.conformant === true &&
    isContentHash(input.artifact_hash) &&
    isContentHash(input.generation_metadata_hash) &&
    typeof input.label === 'string' &&
    input.label.length > 0 &&
    isRecord(protocol) &&
    hasExactKeys(protocol, ['hash', 'slug', 'version']) &&
    isContentHash(protocol.hash) &&
    typeof protocol.slug === 'string' &&
    typeof protocol.version === 'string' &&
    isRecord(issuer) &&
    hasExactKeys(issuer, ['certificate', 'fingerprint']) &&
    isContentHash(issuer.fingerprint) &&
    typeof issuer.certificate === 'string' &&
    isRecord(signature) &&
    hasExactKeys(signature, ['alg', 'value']) &&
    signature.alg === 'Ed25519' &&
    typeof signature.value === 'string';
  if (!valid) return issue('INVALID_EVENT', 'a field of the event is missing or malformed');
  return ok(input as unknown as ConformanceEvent);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value).sort();
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

function issue(
  code: EventIssue['code'],
  message: string,
): { readonly ok: false; readonly issues: readonly EventIssue[] } {
  return fail({ code, message });
}
