import type { ContentHash } from '../core/index.js';
import type { Signer } from '../trust/index.js';
import { CONFORMANCE_EVENT_TYPE, type ConformanceEvent } from './event.js';

/**
 * The per-protocol part of an event: its block as an object, as canonical text (what is signed) and
 * as `JSON.stringify` writes it (what is sent).
 */
interface ProtocolBlock {
  readonly value: ConformanceEvent['protocol'];
  readonly text: string;
  readonly json: string;
}

/** The per-issuer part of an event. */
interface IssuerBlock {
  readonly value: ConformanceEvent['issuer'];
  readonly text: string;
  readonly json: string;
  /** The signed bytes per protocol hash, then per label, both hashes left blank. */
  readonly templates: Map<ContentHash, Map<string, Template>>;
  /** How many templates the maps above hold, all protocols together. */
  count: number;
}

/** An event's signed bytes with both hashes blank, and its label as JSON. */
interface Template {
  readonly message: Buffer;
  readonly labelJson: string;
}

/** A signed event and its JSON text, byte for byte `JSON.stringify(event)`. */
export interface EncodedEvent {
  readonly event: ConformanceEvent;
  readonly json: string;
  /** The event's label as JSON text (cached with its template). */
  readonly labelJson: string;
}

/** Issuer blocks kept: a keyring has one active issuer, a few more across rotations. */
const MAX_ISSUERS = 16;
/** Byte templates kept per issuer (one per protocol and label signed). */
const MAX_TEMPLATES = 1_024;

const PREFIX = '{"artifact_hash":"';
const MIDDLE = '","conformant":true,"generation_metadata_hash":"';
const SUFFIX = `,"type":${JSON.stringify(CONFORMANCE_EVENT_TYPE)},"v":1}`;
/** The start of an event's JSON text, in the key order of the object `sign` returns. */
const JSON_PREFIX = `{"type":${JSON.stringify(CONFORMANCE_EVENT_TYPE)},"v":1,"protocol":`;
/** `sha256:` and 64 hex digits: every content hash is this many ASCII bytes. */
const HASH_LENGTH = 71;
const ARTIFACT_AT = PREFIX.length;
const METADATA_AT = ARTIFACT_AT + HASH_LENGTH + MIDDLE.length;

/** What the encoder needs of a protocol. */
type ProtocolHeader = {
  readonly hash: ContentHash;
  readonly slug: string;
  readonly version: string;
};

/**
 * What an event is made of before its signature: the cached blocks and its template, whose bytes
 * are valid until the next event of the same issuer, protocol and label is prepared.
 */
interface EventParts extends Template {
  readonly issuer: IssuerBlock;
  readonly block: ProtocolBlock;
  readonly artifactHash: ContentHash;
  readonly metadataHash: ContentHash;
  readonly label: string;
}

/**
 * Writes conformance events on the hot path. Only the artifact hash, the metadata hash and the label
 * change from one event to the next; the issuer and protocol blocks are fixed per signer and protocol,
 * and the key order of the event is fixed, so their canonical text is built once and the three fields
 * are spliced in. Per issuer, protocol and label the bytes are kept as a template whose two hash slots
 * (always 71 ASCII bytes) are written into a copy, so no event re-encodes the certificate as UTF-8.
 * The bytes are exactly RFC 8785 of the event without its signature (a property test holds them to
 * `canonicalize`), so any verifier recomputes them with a general canonicalizer.
 */
export class EventEncoder {
  /** By fingerprint, so a signer object made afresh for the same issuer (a keyring reloaded by
   * another process) reuses the block, and a rotated issuer (a new fingerprint) gets its own at once. */
  readonly #issuers = new Map<ContentHash, IssuerBlock>();
  readonly #protocols = new Map<ContentHash, ProtocolBlock>();

  /** Builds and signs one event. Strings must be well-formed: protocols are validated, hashes are hex. */
  sign(
    signer: Signer,
    protocol: ProtocolHeader,
    artifactHash: ContentHash,
    metadataHash: ContentHash,
    label: string,
  ): ConformanceEvent {
    const parts = this.#parts(signer, protocol, artifactHash, metadataHash, label);
    return signedEvent(parts, signer.sign(parts.message));
  }

  /**
   * {@link sign}, and the event's JSON text built from the same cached blocks, so a server answers
   * without serialising the issuer's certificate again (a property test holds it to `JSON.stringify`).
   */
  encode(
    signer: Signer,
    protocol: ProtocolHeader,
    artifactHash: ContentHash,
    metadataHash: ContentHash,
    label: string,
  ): EncodedEvent {
    const parts = this.#parts(signer, protocol, artifactHash, metadataHash, label);
    return encodedEvent(parts, signer.sign(parts.message));
  }

  /**
   * {@link encode} with the signature made on libuv's thread pool when the signer can
   * (`signAsync`), so the event loop answers other requests meanwhile; the same bytes.
   */
  async encodeAsync(
    signer: Signer,
    protocol: ProtocolHeader,
    artifactHash: ContentHash,
    metadataHash: ContentHash,
    label: string,
  ): Promise<EncodedEvent> {
    const parts = this.#parts(signer, protocol, artifactHash, metadataHash, label);
    // The signer copies the template before it returns; the next event may write into it at once.
    const signature =
      signer.signAsync === undefined
        ? signer.sign(parts.message)
        : await signer.signAsync(parts.message);
    return encodedEvent(parts, signature);
  }

  #parts(
    signer: Signer,
    protocol: ProtocolHeader,
    artifactHash: ContentHash,
    metadataHash: ContentHash,
    label: string,
  ): EventParts {
    const issuer = this.#issuer(signer);
    const block = this.#protocol(protocol);
    const { message, labelJson } = this.#message(issuer, block, label, artifactHash, metadataHash);
    return { issuer, block, message, labelJson, artifactHash, metadataHash, label };
  }

  /**
   * The bytes to sign: the template with both hashes written in place. The signer reads them during
   * its call only (the `Signer` contract) and nothing else holds the template, so no copy is made.
   * Templates are found by the protocol's hash and the label as they are, no key built per event.
   */
  #message(
    issuer: IssuerBlock,
    block: ProtocolBlock,
    label: string,
    artifactHash: ContentHash,
    metadataHash: ContentHash,
  ): Template {
    if (artifactHash.length !== HASH_LENGTH || metadataHash.length !== HASH_LENGTH) {
      const labelJson = JSON.stringify(label);
      const text = eventText(issuer, block, labelJson, artifactHash, metadataHash);
      return { message: Buffer.from(text, 'utf8'), labelJson };
    }
    let byLabel = issuer.templates.get(block.value.hash);
    let template = byLabel?.get(label);
    if (template === undefined) {
      template = blankTemplate(issuer, block, label);
      if (issuer.count >= MAX_TEMPLATES) {
        issuer.templates.clear();
        issuer.count = 0;
        byLabel = undefined;
      }
      if (byLabel === undefined) {
        byLabel = new Map();
        issuer.templates.set(block.value.hash, byLabel);
      }
      byLabel.set(label, template);
      issuer.count++;
    }
    template.message.write(artifactHash, ARTIFACT_AT, HASH_LENGTH, 'latin1');
    template.message.write(metadataHash, METADATA_AT, HASH_LENGTH, 'latin1');
    return template;
  }

  #issuer(signer: Signer): IssuerBlock {
    let block = this.#issuers.get(signer.fingerprint);
    // The fingerprint names the certificate, so this holds unless a signer lies; then it is rebuilt.
    if (block === undefined || block.value.certificate !== signer.certificatePem) {
      const value = Object.freeze({
        fingerprint: signer.fingerprint,
        certificate: signer.certificatePem,
      });
      const text = `"issuer":{"certificate":${JSON.stringify(value.certificate)},"fingerprint":"${value.fingerprint}"}`;
      block = { value, text, json: JSON.stringify(value), templates: new Map(), count: 0 };
      if (this.#issuers.size >= MAX_ISSUERS) this.#issuers.clear();
      this.#issuers.set(signer.fingerprint, block);
    }
    return block;
  }

  #protocol(protocol: ProtocolHeader): ProtocolBlock {
    let block = this.#protocols.get(protocol.hash);
    if (!block) {
      const value = Object.freeze({
        hash: protocol.hash,
        slug: protocol.slug,
        version: protocol.version,
      });
      const text = `"protocol":{"hash":"${value.hash}","slug":${JSON.stringify(value.slug)},"version":${JSON.stringify(value.version)}}`;
      block = { value, text, json: JSON.stringify(value) };
      if (this.#protocols.size >= 1_000) this.#protocols.clear();
      this.#protocols.set(protocol.hash, block);
    }
    return block;
  }
}

/** RFC 8785 of the event without its signature, from its cached parts. */
function eventText(
  issuer: IssuerBlock,
  block: ProtocolBlock,
  labelJson: string,
  artifactHash: ContentHash,
  metadataHash: ContentHash,
): string {
  return `${PREFIX}${artifactHash}${MIDDLE}${metadataHash}",${issuer.text},"label":${labelJson},${block.text}${SUFFIX}`;
}

/** An event's signed bytes for one issuer, protocol and label, with both hashes blank. */
function blankTemplate(issuer: IssuerBlock, block: ProtocolBlock, label: string): Template {
  const labelJson = JSON.stringify(label);
  const blank = 'x'.repeat(HASH_LENGTH) as ContentHash;
  return {
    message: Buffer.from(eventText(issuer, block, labelJson, blank, blank), 'utf8'),
    labelJson,
  };
}

/** The signed event of its parts. */
function signedEvent(parts: EventParts, signature: Buffer): ConformanceEvent {
  return {
    type: CONFORMANCE_EVENT_TYPE,
    v: 1,
    protocol: parts.block.value,
    artifact_hash: parts.artifactHash,
    generation_metadata_hash: parts.metadataHash,
    conformant: true,
    label: parts.label,
    issuer: parts.issuer.value,
    signature: { alg: 'Ed25519', value: signature.toString('base64url') },
  };
}

/** The signed event of its parts and its JSON text, byte for byte `JSON.stringify(event)`. */
function encodedEvent(parts: EventParts, signature: Buffer): EncodedEvent {
  const event = signedEvent(parts, signature);
  const { block, issuer, labelJson, artifactHash, metadataHash } = parts;
  const json =
    `${JSON_PREFIX}${block.json},"artifact_hash":"${artifactHash}","generation_metadata_hash":"${metadataHash}",` +
    `"conformant":true,"label":${labelJson},"issuer":${issuer.json},"signature":{"alg":"Ed25519","value":"${event.signature.value}"}}`;
  return { event, json, labelJson };
}
