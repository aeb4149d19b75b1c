import type { KeyObject } from 'node:crypto';
import type { ContentHash } from '../core/index.js';

/** One issuer certificate in a keyring, as the keyring reports it (public material only). */
export interface IssuerRecord {
  /** `sha256:` over the certificate's DER. */
  fingerprint: ContentHash;
  /** The certificate serial number, lowercase hex. */
  serialNumber: string;
  certificatePem: string;
  /** When the issuer was created (ISO 8601). */
  createdAt: string;
  /** True for the one issuer whose key signs now. */
  active: boolean;
  /** True when the root-signed revocation list names this issuer. */
  revoked: boolean;
}

/** The public trust material a relying party pins and uses to verify events offline. */
export interface TrustBundle {
  /** The root certificate (PEM) to pin. */
  root: string;
  root_fingerprint: ContentHash;
  /**
   * True for a development root (minted by the server, its key in the data directory): what it
   * certifies is not production-grade attestation (TCP/AP §10).
   */
  development_root: boolean;
  issuers: { fingerprint: ContentHash; certificate: string; active: boolean; revoked: boolean }[];
  /** The current root-signed X.509 CRL (PEM). */
  revocation_list: string;
}

/** An issuer key awaiting its certificate from the offline root (public material only). */
export interface PendingIssuerRecord {
  /** The number the issuer will have once installed. */
  number: number;
  /** The 32 raw bytes of its Ed25519 public key, base64url. */
  publicKey: string;
  /** When the key was generated (ISO 8601). */
  createdAt: string;
}

/** A certificate signing request for the pending issuer key. */
export interface IssuerRequest {
  /** The pending issuer's number. */
  number: number;
  /** The PKCS#10 request (PEM `CERTIFICATE REQUEST`) to sign on the root machine. */
  certificateRequestPem: string;
}

/** What installing a newer revocation list changed. */
export interface RevocationListInstall {
  /** The installed list's CRL number. */
  number: bigint;
  /** The issuers of this keyring that the list revokes and that were not revoked before. */
  revoked: IssuerRecord[];
}

/** What the kernel gets: it can sign, it cannot read the key. */
export interface Signer {
  /** The fingerprint of the issuer certificate whose key signs. */
  readonly fingerprint: ContentHash;
  readonly certificatePem: string;
  /**
   * Signs `message` with Ed25519 and returns the 64-byte signature. `message` is read during the
   * call only: the caller may write other bytes into it afterwards (the event encoder does).
   */
  sign(message: Uint8Array): Buffer;
  /**
   * {@link sign} on libuv's thread pool, so a server's event loop is free while the key works.
   * `message` is copied before this returns (the same contract as `sign`). Optional: a signer
   * without it is used synchronously.
   */
  signAsync?(message: Uint8Array): Promise<Buffer>;
}

/** Why an issuer certificate or revocation list was not accepted. */
export interface TrustIssue {
  code: 'CHAIN_INVALID' | 'ISSUER_REVOKED' | 'INVALID_CERTIFICATE';
  message: string;
}

/** A verified issuer: its fingerprint and the Ed25519 public key that checks its signatures. */
export interface TrustedIssuer {
  fingerprint: ContentHash;
  publicKey: KeyObject;
  /**
   * True when the pinned root is a development root (its subject says so): what it certifies is
   * not production-grade attestation (TCP/AP §10).
   */
  developmentRoot: boolean;
  /** The first instant at which both the root and the issuer certificate are valid. */
  validFrom: Date;
  /** The last instant at which both are valid: a signature by this issuer after it is worthless. */
  validUntil: Date;
}

/** Options for {@link checkIssuer}. */
export interface CheckIssuerOptions {
  /** When given, root and issuer must both be valid at this instant; no clock is read otherwise. */
  at?: Date;
}

/** A root-signed revocation list after its signature has been checked. */
export interface RevocationList {
  /** The CRL number; each new list has a larger one. */
  number: bigint;
  thisUpdate: Date;
  entries: RevokedCertificate[];
}

/** One entry of a revocation list. */
export interface RevokedCertificate {
  /** The revoked certificate's serial number, lowercase hex. */
  serialNumber: string;
  revokedAt: Date;
}
