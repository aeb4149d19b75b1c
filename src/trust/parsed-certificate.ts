import { X509Certificate } from 'node:crypto';
import { CanonryError, type ContentHash, hashBytes } from '../core/index.js';
import { PEM_LABEL } from './asn1-constants.js';
import { type CertificateFields, readCertificateFields } from './certificate-fields.js';
import { decodePem } from './pem.js';

/** A certificate parsed from strict PEM by both OpenSSL and canonry's own DER reader. */
export interface ParsedCertificate {
  readonly x509: X509Certificate;
  readonly der: Buffer;
  readonly fields: CertificateFields;
  readonly fingerprint: ContentHash;
}

/** Parses one PEM certificate, or returns undefined for anything else; never throws. */
export function parseCertificate(pem: unknown): ParsedCertificate | undefined {
  const der = decodePem(pem, PEM_LABEL.certificate);
  if (der === undefined) return undefined;
  try {
    const x509 = new X509Certificate(der);
    // OpenSSL re-encodes what it parsed; a mismatch means the input was not plain DER.
    if (!x509.raw.equals(der)) return undefined;
    return { x509, der, fields: readCertificateFields(der), fingerprint: hashBytes(der) };
  } catch {
    return undefined;
  }
}

/** `sha256:` over a PEM certificate's DER; throws INVALID_CERTIFICATE on junk. */
export function certificateFingerprint(pem: string): ContentHash {
  const parsed = parseCertificate(pem);
  if (parsed === undefined) {
    throw new CanonryError('INVALID_CERTIFICATE', 'not a PEM X.509 certificate');
  }
  return parsed.fingerprint;
}
