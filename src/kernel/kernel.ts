import { CanonryError, type ContentHash, parseContentHash } from '../core/index.js';
import type { Signer } from '../trust/index.js';
import type { AuditSink } from './audit.js';
import { boundedDetail } from './audit-detail.js';
import { type ValidateEnvelope, VERDICT_STATUS, verdictEnvelope } from './envelope.js';
import type { ConformanceEvent } from './event.js';
import { EventEncoder } from './event-encoder.js';
import type { CompiledProtocol } from './protocol.js';
import { ProtocolRegistry } from './registry.js';
import { resolve } from './resolve.js';
import { VERDICT_CLASSES, type Verdict, type VerdictClass } from './verdict.js';

/** What the kernel needs: the issuer's signer (it alone signs), a registry and an audit sink. */
export interface KernelOptions {
  /** The signer, or a function giving the current one (so a rotated keyring takes effect at once). */
  readonly signer: Signer | (() => Signer);
  readonly registry?: ProtocolRegistry;
  readonly audit?: AuditSink;
  /** Only the private audit record is timestamped; verdicts and events never see the clock. */
  readonly now?: () => Date;
}

/** One evaluation: the verdict, its signed event when conformant, and the §6 response. */
export interface Evaluation {
  readonly verdict: Verdict;
  readonly event: ConformanceEvent | null;
  readonly httpStatus: 200 | 400 | 422;
  readonly envelope: ValidateEnvelope;
}

/**
 * The TCP/AP kernel: resolves an artifact against an agentic protocol to one verdict, signs conformant
 * verdicts as conformance events, and keeps its reasoning in a private audit record.
 *
 * @example
 * const kernel = new Kernel({ signer: keyring.signer() });
 * const { envelope } = await kernel.validate({ artifact, agentic_protocol, generation_metadata_hash });
 */
export class Kernel {
  readonly registry: ProtocolRegistry;
  readonly #signer: () => Signer;
  readonly #audit: AuditSink | undefined;
  readonly #now: () => Date;
  readonly #encoder = new EventEncoder();
  readonly #verdicts = new Map<VerdictClass, number>(VERDICT_CLASSES.map((c) => [c, 0]));

  constructor({
    signer,
    registry = new ProtocolRegistry(),
    audit,
    now = () => new Date(),
  }: KernelOptions) {
    this.#signer = typeof signer === 'function' ? signer : () => signer;
    this.registry = registry;
    this.#audit = audit;
    this.#now = now;
  }

  /** The fingerprint of the issuer this kernel signs with. */
  get issuerFingerprint(): ContentHash {
    return this.#signer().fingerprint;
  }

  /** How many verdicts of each class this kernel has reached (for `/metrics`). */
  verdictCounts(): ReadonlyMap<VerdictClass, number> {
    return this.#verdicts;
  }

  /** Resolves once every audit record so far is written. */
  flushAudit(): Promise<void> {
    return this.#audit?.flush() ?? Promise.resolve();
  }

  /** Evaluates an artifact against a compiled protocol. Never throws for any artifact. */
  evaluate(
    artifact: unknown,
    protocol: CompiledProtocol,
    generationMetadataHash: ContentHash,
  ): Evaluation {
    const verdict = resolve(artifact, protocol);
    this.#verdicts.set(verdict.class, (this.#verdicts.get(verdict.class) ?? 0) + 1);
    const signer = this.#signer();
    const event =
      verdict.class === 'CONFORMANT' && verdict.label !== null && verdict.artifactHash !== null
        ? this.#encoder.sign(
            signer,
            {
              hash: protocol.hash,
              slug: protocol.protocol.slug,
              version: protocol.protocol.version,
            },
            verdict.artifactHash,
            parseContentHash(generationMetadataHash, 'generation_metadata_hash'),
            verdict.label,
          )
        : null;
    this.#audit?.record({
      at: this.#now().toISOString(),
      protocol_hash: verdict.protocolHash,
      protocol_slug: protocol.protocol.slug,
      artifact_hash: verdict.artifactHash,
      generation_metadata_hash: generationMetadataHash,
      class: verdict.class,
      label: verdict.label,
      detail: boundedDetail(verdict.detail),
      issuer: event ? signer.fingerprint : null,
    });
    return {
      verdict,
      event,
      httpStatus: VERDICT_STATUS[verdict.class],
      envelope: verdictEnvelope(verdict.class, verdict.label, event),
    };
  }

  /**
   * Handles a §6 request body `{ artifact, agentic_protocol, generation_metadata_hash }`. A body that
   * is not that shape throws INVALID_BODY, INVALID_HASH, INVALID_PROTOCOL or UNKNOWN_PROTOCOL; it is
   * never evaluated.
   */
  async validate(body: unknown): Promise<Evaluation> {
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
    if (
      typeof ref !== 'string' &&
      (typeof ref !== 'object' || ref === null || Array.isArray(ref))
    ) {
      throw new CanonryError(
        'INVALID_BODY',
        'agentic_protocol must be an object or a sha256: hash',
        {
          field: 'agentic_protocol',
        },
      );
    }
    return this.evaluate(request.artifact, await this.registry.resolveRef(ref), metadataHash);
  }
}

const REQUEST_KEYS = new Set(['artifact', 'agentic_protocol', 'generation_metadata_hash']);
