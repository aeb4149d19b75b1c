import { fail, ok, type Result } from '../core/index.js';
import { serialHex } from './certificate-fields.js';
import { assertsCertificateAuthority, checkIssuerProfile } from './certificate-profile.js';
import { isDevelopmentSubject } from './development-root.js';
import { type ParsedCertificate, parseCertificate } from './parsed-certificate.js';
import { type ListVerifier, readRevocationList } from './revocation-list-reader.js';
import type { CheckIssuerOptions, RevocationList, TrustedIssuer, TrustIssue } from './types.js';

function issue(code: TrustIssue['code'], message: string): Result<never, TrustIssue> {
  return fail({ code, message });
}

function isEd25519(cert: ParsedCertificate): boolean {
  return cert.x509.publicKey.asymmetricKeyType === 'ed25519';
}

/** A span of instants, both ends included. */
export type Validity = Pick<TrustedIssuer, 'validFrom' | 'validUntil'>;

/** The instants at which both certificates are valid (empty when they do not overlap). */
export function validity(issuer: ParsedCertificate, root: ParsedCertificate): Validity {
  const from = Math.max(issuer.fields.notBefore.getTime(), root.fields.notBefore.getTime());
  const until = Math.min(issuer.fields.notAfter.getTime(), root.fields.notAfter.getTime());
  return { validFrom: new Date(from), validUntil: new Date(until) };
}

/** True when `at` lies in the window (inclusive, as RFC 5280 §4.1.2.5 reads notBefore/notAfter). */
export function withinValidity(window: Validity, at: Date): boolean {
  const t = at.getTime();
  return window.validFrom.getTime() <= t && t <= window.validUntil.getTime();
}

function listVerifier(root: ParsedCertificate): ListVerifier {
  return { publicKey: root.x509.publicKey, subject: root.fields.subject };
}

/** The root must be a self-signed Ed25519 CA. */
function checkRoot(root: ParsedCertificate): Result<true, TrustIssue> {
  if (!isEd25519(root)) return issue('INVALID_CERTIFICATE', 'root key is not Ed25519');
  if (!root.x509.ca) return issue('CHAIN_INVALID', 'root is not a CA certificate');
  if (!root.x509.checkIssued(root.x509) || !root.x509.verify(root.x509.publicKey)) {
    return issue('CHAIN_INVALID', 'root is not self-signed');
  }
  return ok(true);
}

function checkChain(
  issuer: ParsedCertificate,
  root: ParsedCertificate,
  options: CheckIssuerOptions,
): Result<true, TrustIssue> {
  if (!isEd25519(issuer)) return issue('INVALID_CERTIFICATE', 'issuer key is not Ed25519');
  if (issuer.x509.ca || assertsCertificateAuthority(issuer.der)) {
    return issue('CHAIN_INVALID', 'issuer is a CA certificate, not an issuer');
  }
  if (!issuer.x509.checkIssued(root.x509) || !issuer.x509.verify(root.x509.publicKey)) {
    return issue('CHAIN_INVALID', 'issuer is not signed by the pinned root');
  }
  const at = options.at;
  if (at !== undefined && !withinValidity(validity(issuer, root), at)) {
    return issue('CHAIN_INVALID', 'root or issuer is not valid at the given time');
  }
  // The root may have certified this key for something else: only the issuer profile (keyUsage
  // digitalSignature, no CA usage) makes it a key whose signatures canonry accepts.
  return checkIssuerProfile(issuer.der);
}

/**
 * Offline trust check: the issuer certificate chains to the pinned root and, when a root-signed
 * revocation list is given, is not on it. Pure: no network and no clock unless `options.at` is set.
 * Never throws on hostile input.
 */
export function checkIssuer(
  issuerPem: string,
  rootPem: string,
  revocationListPem?: string,
  options: CheckIssuerOptions = {},
): Result<TrustedIssuer, TrustIssue> {
  try {
    const root = parseCertificate(rootPem);
    if (root === undefined) {
      return issue('INVALID_CERTIFICATE', 'root is not a PEM X.509 certificate');
    }
    const issuer = parseCertificate(issuerPem);
    if (issuer === undefined) {
      return issue('INVALID_CERTIFICATE', 'issuer is not a PEM X.509 certificate');
    }
    const rootOk = checkRoot(root);
    if (!rootOk.ok) return rootOk;
    const chainOk = checkChain(issuer, root, options);
    if (!chainOk.ok) return chainOk;
    if (revocationListPem !== undefined) {
      const list = readRevocationList(revocationListPem, listVerifier(root));
      if (!list.ok) return list;
      const serial = serialHex(issuer.fields.serial);
      if (list.value.entries.some((entry) => entry.serialNumber === serial)) {
        return issue('ISSUER_REVOKED', `issuer ${issuer.fingerprint} is revoked`);
      }
    }
    return ok({
      fingerprint: issuer.fingerprint,
      publicKey: issuer.x509.publicKey,
      developmentRoot: isDevelopmentSubject(root.fields.subject),
      ...validity(issuer, root),
    });
  } catch {
    return issue('INVALID_CERTIFICATE', 'certificate could not be checked');
  }
}

/**
 * Checks a certificate offered as a root to pin: one PEM certificate, a self-signed Ed25519 CA.
 * Never throws.
 */
export function checkRootCertificate(rootPem: unknown): Result<ParsedCertificate, TrustIssue> {
  try {
    const root = parseCertificate(rootPem);
    if (root === undefined) {
      return issue('INVALID_CERTIFICATE', 'root is not a PEM X.509 certificate');
    }
    const rootOk = checkRoot(root);
    return rootOk.ok ? ok(root) : rootOk;
  } catch {
    return issue('INVALID_CERTIFICATE', 'root certificate could not be checked');
  }
}

/**
 * Offline check of a revocation list against the pinned root: the root must be a self-signed CA
 * and the list must carry its Ed25519 signature. Never throws on hostile input.
 */
export function checkRevocationList(
  revocationListPem: string,
  rootPem: string,
): Result<RevocationList, TrustIssue> {
  try {
    const root = parseCertificate(rootPem);
    if (root === undefined) {
      return issue('INVALID_CERTIFICATE', 'root is not a PEM X.509 certificate');
    }
    const rootOk = checkRoot(root);
    if (!rootOk.ok) return rootOk;
    return readRevocationList(revocationListPem, listVerifier(root));
  } catch {
    return issue('INVALID_CERTIFICATE', 'revocation list could not be checked');
  }
}
