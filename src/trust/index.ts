/**
 * Trust: the project keyring (an Ed25519 X.509 root, root-signed issuers and a root-signed CRL),
 * the offline checks a relying party runs against a pinned root (spec §7), and per-project HMAC
 * keys that chain CSOs (CRP-030 §2.1).
 */
export {
  checkIssuer,
  checkRevocationList,
  checkRootCertificate,
  withinValidity,
} from './check-issuer.js';
export {
  DEVELOPMENT_ROOT_NAME,
  DEVELOPMENT_ROOT_WARNING,
  isDevelopmentRoot,
  LEGACY_ROOT_NAME,
  OFFLINE_ROOT_NAME,
} from './development-root.js';
export { isCanonicalPointEncoding, verifyEd25519 } from './ed25519.js';
export { HMAC_KEY_VARIABLE } from './hmac-key-material.js';
export type { HmacKeyInfo, HmacKeySourceKind } from './hmac-key-sources.js';
export {
  type HmacFailure,
  type HmacKey,
  HmacKeyring,
  type HmacKeyringOptions,
  type HmacVerdict,
} from './hmac-keyring.js';
export { hmacCheck, hmacSeal } from './hmac-seal.js';
export { Keyring, type KeyringInitOptions } from './keyring.js';
export type { OfflineRootMaterial } from './keyring-create.js';
export {
  fileFailure,
  keyringIndexPath,
  keysDirectory,
  listKeyringDirectory,
  makePrivateDirectory,
  writeFileAtomic,
} from './keyring-files.js';
export type { RootKeyLocation } from './keyring-index.js';
export { type IssuedCertificate, OfflineRoot, type SignedIssuer } from './offline-root.js';
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
  IssuerRequest,
  PendingIssuerRecord,
  RevocationList,
  RevocationListInstall,
  RevokedCertificate,
  Signer,
  TrustBundle,
  TrustedIssuer,
  TrustIssue,
} from './types.js';
