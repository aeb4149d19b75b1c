import {
  CanonryError,
  type ContentHash,
  contentHash,
  isContentHash,
  type JsonObject,
} from '../core/index.js';
import type { Evaluation } from '../kernel/index.js';
import type { QualifiedEvent } from './event-types.js';

/** The execution class of an event recording one kernel verdict. */
export const KERNEL_VERDICT_CLASS = 'kernel.verdict';
/** The execution class of an event recording one completed relay window. */
export const RELAY_WINDOW_CLASS = 'relay.window';

/**
 * What a `kernel.verdict` event records in `outcome`: the verdict of (artifact, protocol) and, for a
 * conformant one, the hash of the signed conformance event (RFC 8785 bytes; no clock, so the same
 * issuer gives the same bytes) and the issuer that signed it.
 */
export interface KernelVerdictOutcome {
  readonly protocol_hash: ContentHash;
  readonly artifact_hash: ContentHash;
  readonly generation_metadata_hash: ContentHash;
  readonly class: string;
  readonly label: string | null;
  readonly issuer: ContentHash | null;
  /**
   * Absent when the record the event was made from does not keep the signed event (the kernel's
   * audit keeps only its issuer): replay then compares whether an event was signed.
   */
  readonly event_hash?: ContentHash | null;
}

/**
 * What a `relay.window` event records in `outcome`: which window, the digest of its state (see the
 * app's `relayStateDigest`: the CSO without what the project's key and the session id make), and
 * its verification.
 */
export interface RelayWindowOutcome {
  readonly session_id: string;
  readonly window_number: number;
  readonly state_digest: ContentHash;
  readonly verified: boolean;
  readonly preservation: number;
}

function unavailable(message: string, path: string): CanonryError {
  return new CanonryError('REPLAY_UNAVAILABLE', message, { path });
}

/** The outcome of a `kernel.verdict` event, read as untrusted input. */
export function kernelVerdictOutcome(event: QualifiedEvent): KernelVerdictOutcome {
  const o: JsonObject = event.outcome;
  for (const field of ['protocol_hash', 'artifact_hash', 'generation_metadata_hash'] as const) {
    if (!isContentHash(o[field]))
      throw unavailable(`outcome.${field} is not a content hash`, `outcome.${field}`);
  }
  if (typeof o.class !== 'string')
    throw unavailable('outcome.class is not a string', 'outcome.class');
  for (const field of ['label'] as const) {
    if (o[field] !== null && typeof o[field] !== 'string')
      throw unavailable(`outcome.${field} is not a string or null`, `outcome.${field}`);
  }
  if (o.issuer !== null && !isContentHash(o.issuer))
    throw unavailable('outcome.issuer is not a content hash or null', 'outcome.issuer');
  for (const field of ['event_hash'] as const) {
    if (o[field] !== undefined && o[field] !== null && !isContentHash(o[field]))
      throw unavailable(`outcome.${field} is not a content hash or null`, `outcome.${field}`);
  }
  return o as unknown as KernelVerdictOutcome;
}

/** The outcome of a `relay.window` event, read as untrusted input. */
export function relayWindowOutcome(event: QualifiedEvent): RelayWindowOutcome {
  const o: JsonObject = event.outcome;
  if (typeof o.session_id !== 'string' || o.session_id === '')
    throw unavailable('outcome.session_id is not a session id', 'outcome.session_id');
  if (!Number.isSafeInteger(o.window_number) || (o.window_number as number) < 1)
    throw unavailable('outcome.window_number is not a window number', 'outcome.window_number');
  if (!isContentHash(o.state_digest))
    throw unavailable('outcome.state_digest is not a content hash', 'outcome.state_digest');
  if (typeof o.verified !== 'boolean')
    throw unavailable('outcome.verified is not a boolean', 'outcome.verified');
  if (typeof o.preservation !== 'number' || !(o.preservation >= 0 && o.preservation <= 1))
    throw unavailable('outcome.preservation is not in [0, 1]', 'outcome.preservation');
  return o as unknown as RelayWindowOutcome;
}

/** The outcome a `kernel.verdict` event records for one evaluation (what its replay compares). */
export function kernelVerdictOutcomeOf(
  evaluation: Pick<Evaluation, 'verdict' | 'event'>,
  generationMetadataHash: ContentHash,
): Required<KernelVerdictOutcome> & JsonObject {
  const { verdict, event } = evaluation;
  if (verdict.artifactHash === null) {
    throw new CanonryError('REPLAY_UNAVAILABLE', 'a verdict on no artifact cannot be replayed', {
      path: 'outcome.artifact_hash',
    });
  }
  return {
    protocol_hash: verdict.protocolHash,
    artifact_hash: verdict.artifactHash,
    generation_metadata_hash: generationMetadataHash,
    class: verdict.class,
    label: verdict.label,
    issuer: event?.issuer.fingerprint ?? null,
    event_hash: event === null ? null : contentHash(event),
  };
}
