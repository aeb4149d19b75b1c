import { type ContentHash, parseContentHash } from '../core/index.js';
import type { Signer } from '../trust/index.js';
import type { AuditSink } from './audit.js';
import { boundedDetail } from './audit-detail.js';
import { type ValidateEnvelope, VERDICT_STATUS, verdictEnvelope } from './envelope.js';
import type { ConformanceEvent } from './event.js';
import { type EncodedEvent, EventEncoder } from './event-encoder.js';
import type { CompiledProtocol } from './protocol.js';
import { ProtocolRegistry } from './registry.js';
import { type Decision, decide, decideRequest } from './request.js';
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
  /**
   * The envelope as JSON text, byte for byte `JSON.stringify(envelope)`, when the kernel wrote it
   * already (conformant verdicts: built from the event's cached blocks); otherwise undefined.
   */
  readonly json?: string;
}

/** What a conformant decision is signed with. */
interface Signable {
  readonly signer: Signer;
  readonly protocol: Decision['protocol'];
  readonly artifactHash: ContentHash;
  readonly meta: ContentHash;
  readonly label: string;
}

/** A decision's event, who signed it, and its JSON text when a server needs it. */
interface Signed {
  readonly signer: Signer;
  readonly event: ConformanceEvent;
  readonly encoded?: EncodedEvent;
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
    const decision = decide(artifact, protocol, generationMetadataHash);
    const s = this.#signable(decision);
    if (s === null) return this.#finish(decision, null);
    const event = this.#encoder.sign(s.signer, s.protocol, s.artifactHash, s.meta, s.label);
    return this.#finish(decision, { signer: s.signer, event });
  }

  /**
   * Signs a decision when it is conformant, writes its private audit record and builds the §6
   * response: the half of an evaluation that needs the signer, kept on the thread that holds it.
   * A decision made elsewhere (the server's evaluation threads) gives the same bytes as `evaluate`.
   */
  attest(decision: Decision): Evaluation {
    const s = this.#signable(decision);
    if (s === null) return this.#finish(decision, null);
    const encoded = this.#encoder.encode(s.signer, s.protocol, s.artifactHash, s.meta, s.label);
    return this.#finish(decision, { signer: s.signer, event: encoded.event, encoded });
  }

  /**
   * {@link attest} with the signature made off the event loop when the signer can (libuv's
   * thread pool): what a server awaits, so other requests are served while the key works. The
   * same bytes as `attest`; the audit record and the counts are written when it resolves.
   */
  async attestAsync(decision: Decision): Promise<Evaluation> {
    const s = this.#signable(decision);
    if (s === null) return this.#finish(decision, null);
    const { signer } = s;
    const encoded = await this.#encoder.encodeAsync(
      signer,
      s.protocol,
      s.artifactHash,
      s.meta,
      s.label,
    );
    return this.#finish(decision, { signer, event: encoded.event, encoded });
  }

  /** What a conformant decision is signed with, or null when nothing is to be signed. */
  #signable({ verdict, protocol, metadataHash }: Decision): Signable | null {
    if (verdict.class !== 'CONFORMANT' || verdict.label === null || verdict.artifactHash === null)
      return null;
    return {
      signer: this.#signer(),
      protocol,
      artifactHash: verdict.artifactHash,
      meta: parseContentHash(metadataHash, 'generation_metadata_hash'),
      label: verdict.label,
    };
  }

  /** Counts the verdict, writes its audit record and builds the response around its event. */
  #finish({ verdict, protocol, metadataHash }: Decision, signed: Signed | null): Evaluation {
    this.#verdicts.set(verdict.class, (this.#verdicts.get(verdict.class) ?? 0) + 1);
    const event = signed?.event ?? null;
    this.#audit?.record({
      at: this.#now().toISOString(),
      protocol_hash: verdict.protocolHash,
      protocol_slug: protocol.slug,
      artifact_hash: verdict.artifactHash,
      generation_metadata_hash: metadataHash,
      class: verdict.class,
      label: verdict.label,
      detail: boundedDetail(verdict.detail),
      issuer: signed?.signer.fingerprint ?? null,
    });
    const envelope = verdictEnvelope(verdict.class, verdict.label, event);
    const encoded = signed?.encoded;
    if (encoded === undefined) {
      return { verdict, event, httpStatus: VERDICT_STATUS[verdict.class], envelope };
    }
    return {
      verdict,
      event,
      httpStatus: 200,
      envelope,
      json: `{"status":"EVALUATED","data":{"conformant":true,"label":${encoded.labelJson}},"error":null,"attestation":${encoded.json}}`,
    };
  }

  /**
   * Handles a §6 request body `{ artifact, agentic_protocol, generation_metadata_hash }`. A body that
   * is not that shape throws INVALID_BODY, INVALID_HASH, INVALID_PROTOCOL or UNKNOWN_PROTOCOL; it is
   * never evaluated.
   */
  async validate(body: unknown): Promise<Evaluation> {
    return this.attestAsync(await decideRequest(body, (ref) => this.registry.resolveRef(ref)));
  }
}
