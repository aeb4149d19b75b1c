import { CanonryError, type ContentHash, parseContentHash } from '../core/index.js';
import type { CompiledProtocol } from './protocol.js';
import { resolve } from './resolve.js';
import type { Verdict } from './verdict.js';

/** A §6 request body whose shape has been checked; the protocol is not resolved yet. */
export interface ValidateRequest {
  readonly artifact: unknown;
  /** An inline bundle (still unvalidated) or a string that should be a `sha256:` hash. */
  readonly protocolRef: Record<string, unknown> | string;
  readonly metadataHash: ContentHash;
}

/** What an event names of the protocol it was resolved against. */
export interface ProtocolHeader {
  readonly hash: ContentHash;
  readonly slug: string;
  readonly version: string;
}

/**
 * The decision half of one §6 request: everything but signing and auditing. It is a plain value so
 * that it can be computed on another thread and attested on the thread that holds the signer.
 */
export interface Decision {
  readonly verdict: Verdict;
  readonly protocol: ProtocolHeader;
  /** The generation metadata hash exactly as the request gave it (already checked). */
  readonly metadataHash: ContentHash;
}

const REQUEST_KEYS = new Set(['artifact', 'agentic_protocol', 'generation_metadata_hash']);

/**
 * Checks the shape of a §6 body `{ artifact, agentic_protocol, generation_metadata_hash }`: missing or
 * unknown fields → INVALID_BODY, a bad metadata hash → INVALID_HASH. Pure; throws CanonryError only.
 */
export function parseValidateRequest(body: unknown): ValidateRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CanonryError('INVALID_BODY', 'the body must be a JSON object');
  }
  const request = body as Record<string, unknown>;
  const unknown = Object.keys(request).filter((k) => !REQUEST_KEYS.has(k));
  if (unknown.length > 0) {
    throw new CanonryError('INVALID_BODY', `unknown field ${JSON.stringify(unknown[0])}`, {
      field: unknown[0],
    });
  }
  for (const field of REQUEST_KEYS) {
    if (!(field in request)) {
      throw new CanonryError('INVALID_BODY', `missing field ${field}`, { field });
    }
  }
  const metadataHash = parseContentHash(
    request.generation_metadata_hash,
    'generation_metadata_hash',
  );
  const ref = request.agentic_protocol;
  if (typeof ref !== 'string' && (typeof ref !== 'object' || ref === null || Array.isArray(ref))) {
    throw new CanonryError('INVALID_BODY', 'agentic_protocol must be an object or a sha256: hash', {
      field: 'agentic_protocol',
    });
  }
  return {
    artifact: request.artifact,
    protocolRef: ref as ValidateRequest['protocolRef'],
    metadataHash,
  };
}

/**
 * Decides a §6 body: its shape, its protocol (through `protocolOf`: the registry in process, a
 * worker's own compile cache elsewhere) and the verdict. The same function on every path, so where it
 * runs cannot change the answer. Throws the typed errors of {@link parseValidateRequest} and of
 * `protocolOf` (INVALID_HASH, UNKNOWN_PROTOCOL, INVALID_PROTOCOL); never evaluates a bad request.
 */
export async function decideRequest(
  body: unknown,
  protocolOf: (ref: ValidateRequest['protocolRef']) => Promise<CompiledProtocol>,
): Promise<Decision> {
  const request = parseValidateRequest(body);
  const protocol = await protocolOf(request.protocolRef);
  return decide(request.artifact, protocol, request.metadataHash);
}

/** The verdict of an artifact against a compiled protocol, as a {@link Decision}. */
export function decide(
  artifact: unknown,
  protocol: CompiledProtocol,
  metadataHash: ContentHash,
): Decision {
  return {
    verdict: resolve(artifact, protocol),
    protocol: {
      hash: protocol.hash,
      slug: protocol.protocol.slug,
      version: protocol.protocol.version,
    },
    metadataHash,
  };
}
