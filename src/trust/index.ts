/**
 * Trust: the project keyring (an Ed25519 X.509 root, root-signed issuers and a root-signed CRL)
 * and the offline checks a relying party runs against a pinned root (spec §7).
 */
export { checkIssuer, checkRevocationList } from './check-issuer.js';
export { isCanonicalPointEncoding, verifyEd25519 } from './ed25519.js';
export { Keyring } from './keyring.js';
export { keyringIndexPath } from './keyring-files.js';
export { certificateFingerprint } from './parsed-certificate.js';
export {
  type DocumentIssue,
  documentBytes,
  type IssuerBlock,
  type SignatureBlock,
  type SignedDocument,
  signDocument,
  type TrustAnchor,
  verifyDocumentSignature,
} from './signed-document.js';
export type {
  CheckIssuerOptions,
  IssuerRecord,
  RevocationList,
  RevokedCertificate,
  Signer,
  TrustBundle,
  TrustedIssuer,
  TrustIssue,
} from './types.js';
