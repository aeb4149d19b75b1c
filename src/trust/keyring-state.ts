import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { CanonryError, type ContentHash } from '../core/index.js';
import { PEM_LABEL } from './asn1-constants.js';
import {
  commonName,
  createIssuerCertificate,
  createRootCertificate,
} from './certificate-builder.js';
import { serialHex } from './certificate-fields.js';
import { issuerCommonName } from './development-root.js';
import { rawPublicKey } from './ed25519.js';
import type { IndexedIssuer, KeyringIndex } from './keyring-index.js';
import { parseCertificate } from './parsed-certificate.js';
import { decodePem } from './pem.js';
import type { RevocationList } from './types.js';

/** The root as the keyring holds it in memory; no private key when the root is offline. */
export interface RootMaterial {
  pem: string;
  fingerprint: ContentHash;
  subject: Buffer;
  notAfter: Date;
  publicKey: KeyObject;
  privateKey?: KeyObject;
}

/** A root whose private key is at hand: it can certify issuers and sign revocation lists. */
export type SigningRoot = RootMaterial & { privateKey: KeyObject };

/** Everything a loaded keyring knows; private keys never leave this structure except to sign. */
export interface KeyringState {
  dir: string;
  root: RootMaterial;
  index: KeyringIndex;
  /** Issuer certificate PEM by fingerprint. */
  certificates: Map<ContentHash, string>;
  /** The active issuer's key; undefined while there is no active issuer. */
  activeKey: KeyObject | undefined;
  /** The key of `index.pending_issuer`, awaiting its certificate. */
  pendingKey: KeyObject | undefined;
  revocationList: { pem: string; list: RevocationList };
}

/** A freshly minted issuer: its certificate, key and index entry. */
export interface MintedIssuer {
  pem: string;
  privateKey: KeyObject;
  entry: IndexedIssuer;
}

/** Parses a certificate this module just produced or has already validated. */
function trustedCertificate(pem: string) {
  const parsed = parseCertificate(pem);
  if (parsed === undefined) {
    throw new CanonryError('INTERNAL', 'generated an unreadable certificate');
  }
  return parsed;
}

/** Generates a root key pair and its self-signed certificate with common name `cn`. */
export function mintRoot(cn: string, now: Date): SigningRoot {
  const keys = generateKeyPairSync('ed25519');
  const pem = createRootCertificate(keys, cn, now);
  const { fields, fingerprint } = trustedCertificate(pem);
  return { pem, fingerprint, subject: fields.subject, notAfter: fields.notAfter, ...keys };
}

/** Generates issuer number `n` with a fresh key, signed by the root. */
export function mintIssuer(n: number, root: SigningRoot, now: Date): MintedIssuer {
  const keys = generateKeyPairSync('ed25519');
  const subject = commonName(issuerCommonName(n));
  const pem = createIssuerCertificate(subject, keys.publicKey, root, now);
  return { pem, privateKey: keys.privateKey, entry: issuerEntry(n, pem, now) };
}

/** The index entry of issuer number `n`, active, for a certificate already checked. */
export function issuerEntry(n: number, pem: string, now: Date): IndexedIssuer {
  const { fields, fingerprint } = trustedCertificate(pem);
  return {
    number: n,
    fingerprint,
    serial: serialHex(fields.serial),
    created_at: now.toISOString(),
    status: 'active',
  };
}

/** A private key as PKCS#8 PEM, for its 0600 file. */
export function privateKeyPem(key: KeyObject): string {
  return key.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/**
 * Reads a PKCS#8 Ed25519 private key file and checks it belongs to `publicKey`. Errors name the
 * file only: neither the key text nor OpenSSL's parse error is ever echoed.
 */
export function readPrivateKey(text: string, name: string, publicKey: KeyObject): KeyObject {
  const der = decodePem(text, PEM_LABEL.privateKey);
  let key: KeyObject | undefined;
  try {
    if (der !== undefined) key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    key = undefined;
  }
  if (key === undefined || key.asymmetricKeyType !== 'ed25519') {
    throw new CanonryError('KEYRING_CORRUPT', `${name} is not a PKCS#8 Ed25519 key file`);
  }
  if (!rawPublicKey(key).equals(rawPublicKey(publicKey))) {
    throw new CanonryError('KEYRING_CORRUPT', `${name} does not match its certificate`);
  }
  return key;
}
