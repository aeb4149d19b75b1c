/**
 * PKCS#10 certificate signing requests (RFC 2986) for issuer keys, Ed25519 only (RFC 8410):
 * written by the server (`keys csr`), read as hostile input by the offline root (`keys offline sign`).
 */
import type { KeyObject } from 'node:crypto';
import { fail, ok, type Result } from '../core/index.js';
import { ED25519_ALGORITHM, OID, PEM_LABEL } from './asn1-constants.js';
import { commonName, signStructure } from './certificate-builder.js';
import {
  DerError,
  expectTag,
  readChildren,
  readObjectIdentifier,
  readOctetAlignedBits,
  readSingle,
  readUnsignedInteger,
} from './der-reader.js';
import { integer, sequence, tlv } from './der-writer.js';
import { ed25519KeyFromSpki, publicKeyFromRaw, verifyEd25519 } from './ed25519.js';
import { decodePem, encodePem } from './pem.js';

/** A request whose structure and self-signature have been checked. */
export interface CertificateRequest {
  /** The requested subject common name, `canonry issuer <n>`. */
  readonly commonName: string;
  /** The encoded subject Name, copied into the certificate. */
  readonly subject: Buffer;
  readonly publicKey: KeyObject;
  /** The 32 raw bytes of the requested Ed25519 key. */
  readonly rawPublicKey: Buffer;
}

/** Why a request was refused: malformed or not an issuer request, or a bad self-signature. */
export interface RequestIssue {
  readonly code: 'INVALID_CSR' | 'SIGNATURE_INVALID';
  readonly message: string;
}

/** The only subject an issuer request may carry. */
export const ISSUER_COMMON_NAME = /^canonry issuer [1-9][0-9]{0,8}$/;

/**
 * Writes a PKCS#10 request for `keys.publicKey`, subject CN `cn`, no attributes, self-signed with
 * Ed25519 (deterministic: the same key and name always give the same bytes).
 */
export function createCertificateRequest(
  cn: string,
  keys: { publicKey: KeyObject; privateKey: KeyObject },
): string {
  const info = sequence(
    integer(0n), // v1
    commonName(cn),
    keys.publicKey.export({ format: 'der', type: 'spki' }),
    tlv(0xa0), // attributes [0] IMPLICIT SET OF Attribute: none
  );
  return encodePem(PEM_LABEL.certificateRequest, signStructure(info, keys.privateKey));
}

function invalid(message: string): Result<never, RequestIssue> {
  return fail({ code: 'INVALID_CSR', message });
}

/** The single common name of a one-attribute Name; throws {@link DerError} for anything else. */
function soleCommonName(subject: Buffer): string {
  const [rdn, ...moreRdns] = readChildren(readSingle(subject, 0x30, 'subject'));
  const [attribute, ...moreAttributes] = readChildren(expectTag(rdn, 0x31, 'RDN'));
  const [type, value, ...rest] = readChildren(expectTag(attribute, 0x30, 'attribute'));
  if (moreRdns.length + moreAttributes.length + rest.length > 0) {
    throw new DerError('subject must be a single common name');
  }
  if (readObjectIdentifier(type, 'attribute type') !== OID.commonName) {
    throw new DerError('subject must be a common name');
  }
  return expectTag(value, 0x0c, 'common name (UTF8String)').content.toString('utf8');
}

/**
 * Reads a PEM certificate signing request as hostile input: strict DER, version 1, a subject of
 * exactly `canonry issuer <n>`, an Ed25519 key with a canonical encoding, no attributes, and an
 * Ed25519 self-signature that verifies. Never throws.
 */
export function readCertificateRequest(pem: unknown): Result<CertificateRequest, RequestIssue> {
  const der = decodePem(pem, PEM_LABEL.certificateRequest);
  if (der === undefined) return invalid('not a PEM CERTIFICATE REQUEST');
  try {
    const parts = readChildren(readSingle(der, 0x30, 'CertificationRequest'));
    const [info, algorithm, signatureBits] = parts;
    if (parts.length !== 3) throw new DerError('CertificationRequest has the wrong shape');
    if (!expectTag(algorithm, 0x30, 'signatureAlgorithm').encoded.equals(ED25519_ALGORITHM)) {
      return invalid('the request is not signed with Ed25519');
    }
    const signature = readOctetAlignedBits(signatureBits, 'signature');
    const fields = readChildren(expectTag(info, 0x30, 'certificationRequestInfo'));
    const [version, subject, spki, attributes] = fields;
    if (fields.length !== 4) throw new DerError('certificationRequestInfo has the wrong shape');
    if (readUnsignedInteger(version, 'version') !== 0n) throw new DerError('not a v1 request');
    const raw = ed25519KeyFromSpki(expectTag(spki, 0x30, 'subjectPKInfo').encoded);
    if (raw === undefined) return invalid('the requested key is not a canonical Ed25519 key');
    if (expectTag(attributes, 0xa0, 'attributes').content.length !== 0) {
      return invalid('the request carries attributes; issuer requests have none');
    }
    const subjectElement = expectTag(subject, 0x30, 'subject');
    const cn = soleCommonName(subjectElement.encoded);
    if (!ISSUER_COMMON_NAME.test(cn)) return invalid('the subject is not "canonry issuer <n>"');
    // Proof of possession: the request is signed by the key it asks a certificate for.
    if (!verifyEd25519(raw, info!.encoded, signature)) {
      return fail({ code: 'SIGNATURE_INVALID', message: 'the request signature does not verify' });
    }
    return ok({
      commonName: cn,
      subject: subjectElement.encoded,
      publicKey: publicKeyFromRaw(raw),
      rawPublicKey: Buffer.from(raw),
    });
  } catch (error) {
    const reason = error instanceof DerError ? error.message : 'unreadable';
    return invalid(`malformed request: ${reason}`);
  }
}
