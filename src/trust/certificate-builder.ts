import { createHash, type KeyObject, randomBytes, sign } from 'node:crypto';
import { ED25519_ALGORITHM, OID, PEM_LABEL } from './asn1-constants.js';
import {
  bitString,
  boolean,
  explicit,
  integer,
  objectIdentifier,
  octetString,
  sequence,
  set,
  time,
  tlv,
  utf8String,
} from './der-writer.js';
import { rawPublicKey } from './ed25519.js';
import { encodePem } from './pem.js';

/** Validity of the root certificate, in years. */
export const ROOT_VALIDITY_YEARS = 20;
/** Validity of an issuer certificate, in years (never past the root's expiry). */
export const ISSUER_VALIDITY_YEARS = 10;
/** A Name with a single common-name attribute. */
export function commonName(cn: string): Buffer {
  return sequence(set(sequence(objectIdentifier(OID.commonName), utf8String(cn))));
}

/** A key identifier: the first 160 bits of SHA-256 over the raw public key (RFC 7093 §2). */
export function keyIdentifier(publicKey: KeyObject): Buffer {
  return createHash('sha256').update(rawPublicKey(publicKey)).digest().subarray(0, 20);
}

/** A random positive 128-bit serial number whose first byte is non-zero (16 content bytes). */
export function randomSerial(): Buffer {
  const serial = randomBytes(16);
  serial[0] = ((serial[0] as number) & 0x7f) | 0x01;
  return serial;
}

/** An Extension; `critical` is omitted when false, as DER requires for a DEFAULT value. */
export function extension(oid: string, critical: boolean, value: Uint8Array): Buffer {
  const flag = critical ? [boolean(true)] : [];
  return sequence(objectIdentifier(oid), ...flag, octetString(value));
}

/** AuthorityKeyIdentifier with only the keyIdentifier ([0] IMPLICIT OCTET STRING). */
export function authorityKeyIdentifier(issuerKey: KeyObject): Buffer {
  return extension(
    OID.authorityKeyIdentifier,
    false,
    sequence(tlv(0x80, keyIdentifier(issuerKey))),
  );
}

/** Signs a to-be-signed structure with Ed25519 and wraps it as Certificate or CertificateList. */
export function signStructure(tbs: Buffer, signingKey: KeyObject): Buffer {
  return sequence(tbs, ED25519_ALGORITHM, bitString(sign(null, tbs, signingKey)));
}

function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function addYears(date: Date, years: number): Date {
  const result = wholeSeconds(date);
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}

interface CertificateSpec {
  serial: Buffer;
  issuer: Buffer;
  subject: Buffer;
  notBefore: Date;
  notAfter: Date;
  subjectKey: KeyObject;
  signingKey: KeyObject;
  extensions: Buffer[];
}

function certificatePem(spec: CertificateSpec): string {
  const tbs = sequence(
    explicit(0, integer(2n)), // v3
    integer(spec.serial),
    ED25519_ALGORITHM,
    spec.issuer,
    sequence(time(spec.notBefore), time(spec.notAfter)),
    spec.subject,
    spec.subjectKey.export({ format: 'der', type: 'spki' }),
    explicit(3, sequence(...spec.extensions)),
  );
  return encodePem(PEM_LABEL.certificate, signStructure(tbs, spec.signingKey));
}

/** Creates a self-signed root named `cn`: CA (critical), keyCertSign + cRLSign, 20 years. */
export function createRootCertificate(
  keys: { publicKey: KeyObject; privateKey: KeyObject },
  cn: string,
  now: Date,
): string {
  const name = commonName(cn);
  return certificatePem({
    serial: randomSerial(),
    issuer: name,
    subject: name,
    notBefore: wholeSeconds(now),
    notAfter: addYears(now, ROOT_VALIDITY_YEARS),
    subjectKey: keys.publicKey,
    signingKey: keys.privateKey,
    extensions: [
      extension(OID.basicConstraints, true, sequence(boolean(true))),
      // keyCertSign (bit 5) and cRLSign (bit 6): one byte 0b0000_0110 with one unused bit.
      extension(OID.keyUsage, true, bitString(Buffer.from([0x06]), 1)),
      extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(keys.publicKey))),
      authorityKeyIdentifier(keys.publicKey),
    ],
  });
}

/** What the root contributes to an issuer certificate. */
export interface RootAuthority {
  subject: Buffer;
  notAfter: Date;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/**
 * Creates an issuer certificate with subject `subject` (an encoded Name): end entity,
 * digitalSignature only, signed by the root.
 */
export function createIssuerCertificate(
  subject: Buffer,
  issuerKey: KeyObject,
  root: RootAuthority,
  now: Date,
): string {
  const notAfter = addYears(now, ISSUER_VALIDITY_YEARS);
  return certificatePem({
    serial: randomSerial(),
    issuer: root.subject,
    subject,
    notBefore: wholeSeconds(now),
    notAfter: new Date(Math.min(notAfter.getTime(), root.notAfter.getTime())),
    subjectKey: issuerKey,
    signingKey: root.privateKey,
    extensions: [
      extension(OID.basicConstraints, true, sequence()),
      // digitalSignature (bit 0): one byte 0b1000_0000 with seven unused bits.
      extension(OID.keyUsage, true, bitString(Buffer.from([0x80]), 7)),
      extension(OID.subjectKeyIdentifier, false, octetString(keyIdentifier(issuerKey))),
      authorityKeyIdentifier(root.publicKey),
    ],
  });
}
