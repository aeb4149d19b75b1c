import { objectIdentifier, sequence } from './der-writer.js';

/** Object identifiers used by canonry certificates and revocation lists (RFC 5280, RFC 8410). */
export const OID = {
  ed25519: '1.3.101.112',
  commonName: '2.5.4.3',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  crlNumber: '2.5.29.20',
  authorityKeyIdentifier: '2.5.29.35',
} as const;

/** The Ed25519 AlgorithmIdentifier: the OID with absent parameters (RFC 8410 §3). */
export const ED25519_ALGORITHM = sequence(objectIdentifier(OID.ed25519));

/** PEM labels. */
export const PEM_LABEL = {
  certificate: 'CERTIFICATE',
  revocationList: 'X509 CRL',
  certificateRequest: 'CERTIFICATE REQUEST',
  privateKey: 'PRIVATE KEY',
} as const;
