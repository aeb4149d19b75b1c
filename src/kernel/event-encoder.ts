import type { ContentHash } from '../core/index.js';
import type { Signer } from '../trust/index.js';
import { CONFORMANCE_EVENT_TYPE, type ConformanceEvent } from './event.js';

/** The per-protocol part of an event: its block as an object and as canonical text. */
interface ProtocolBlock {
  readonly value: ConformanceEvent['protocol'];
  readonly text: string;
}

/** The per-issuer part of an event. */
interface IssuerBlock {
  readonly value: ConformanceEvent['issuer'];
  readonly text: string;
}

/** Issuer blocks kept: a keyring has one active issuer, a few more across rotations. */
const MAX_ISSUERS = 16;

const SUFFIX = `,"type":${JSON.stringify(CONFORMANCE_EVENT_TYPE)},"v":1}`;

/**
 * Writes conformance events on the hot path. Only the artifact hash, the metadata hash and the label
 * change from one event to the next; the issuer and protocol blocks are fixed per signer and protocol,
 * and the key order of the event is fixed, so their canonical text is built once and the three fields
 * are spliced in. The bytes are exactly RFC 8785 of the event without its signature (a property test
 * holds them to `canonicalize`), so any verifier recomputes them with a general canonicalizer.
 */
export class EventEncoder {
  /** By fingerprint, so a signer object made afresh for the same issuer (a keyring reloaded by
   * another process) reuses the block, and a rotated issuer (a new fingerprint) gets its own at once. */
  readonly #issuers = new Map<ContentHash, IssuerBlock>();
  readonly #protocols = new Map<ContentHash, ProtocolBlock>();

  /** Builds and signs one event. Strings must be well-formed: protocols are validated, hashes are hex. */
  sign(
    signer: Signer,
    protocol: { readonly hash: ContentHash; readonly slug: string; readonly version: string },
    artifactHash: ContentHash,
    metadataHash: ContentHash,
    label: string,
  ): ConformanceEvent {
    const issuer = this.#issuer(signer);
    const block = this.#protocol(protocol);
    const text =
      `{"artifact_hash":"${artifactHash}","conformant":true,"generation_metadata_hash":"${metadataHash}",` +
      `${issuer.text},"label":${JSON.stringify(label)},${block.text}${SUFFIX}`;
    const value = signer.sign(Buffer.from(text, 'utf8')).toString('base64url');
    return {
      type: CONFORMANCE_EVENT_TYPE,
      v: 1,
      protocol: block.value,
      artifact_hash: artifactHash,
      generation_metadata_hash: metadataHash,
      conformant: true,
      label,
      issuer: issuer.value,
      signature: { alg: 'Ed25519', value },
    };
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
      block = { value, text };
      if (this.#issuers.size >= MAX_ISSUERS) this.#issuers.clear();
      this.#issuers.set(signer.fingerprint, block);
    }
    return block;
  }

  #protocol(protocol: {
    readonly hash: ContentHash;
    readonly slug: string;
    readonly version: string;
  }): ProtocolBlock {
    let block = this.#protocols.get(protocol.hash);
    if (!block) {
      const value = Object.freeze({
        hash: protocol.hash,
        slug: protocol.slug,
        version: protocol.version,
      });
      const text = `"protocol":{"hash":"${value.hash}","slug":${JSON.stringify(value.slug)},"version":${JSON.stringify(value.version)}}`;
      block = { value, text };
      if (this.#protocols.size >= 1_000) this.#protocols.clear();
      this.#protocols.set(protocol.hash, block);
    }
    return block;
  }
}
