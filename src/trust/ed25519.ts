import { createPublicKey, KeyObject, verify } from 'node:crypto';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32 raw key bytes follow it (RFC 8410). */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** The field prime p = 2^255 - 19. */
const P = (1n << 255n) - 19n;
/** The group order L = 2^252 + 27742317777372353535851937790883648493. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

function littleEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i] as number);
  return value;
}

/**
 * True when 32 bytes are the canonical encoding of a point's y and x sign (RFC 8032 §5.1.3): y < p,
 * and the sign bit is clear when x = 0 (y = ±1), the case some verifiers wrongly accept.
 */
export function isCanonicalPointEncoding(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  const signBit = ((bytes[31] as number) & 0x80) !== 0;
  const y = littleEndian(bytes) & ((1n << 255n) - 1n);
  if (y >= P) return false;
  return !(signBit && (y === 1n || y === P - 1n));
}

/** The 32 raw bytes of an Ed25519 public (or private) KeyObject's public key. */
export function rawPublicKey(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return spki.subarray(SPKI_PREFIX.length);
}

/**
 * The 32 raw key bytes of a DER SubjectPublicKeyInfo when it is exactly an Ed25519 key with a
 * canonical point encoding (RFC 8410 §4), else undefined.
 */
export function ed25519KeyFromSpki(spki: Uint8Array): Buffer | undefined {
  const bytes = Buffer.from(spki);
  if (bytes.length !== SPKI_PREFIX.length + 32) return undefined;
  if (!bytes.subarray(0, SPKI_PREFIX.length).equals(SPKI_PREFIX)) return undefined;
  const raw = bytes.subarray(SPKI_PREFIX.length);
  return isCanonicalPointEncoding(raw) ? raw : undefined;
}

/** An Ed25519 public KeyObject from 32 raw bytes (the caller checks the length). */
export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  return createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, raw]),
    format: 'der',
    type: 'spki',
  });
}

/** Key objects already found to hold a canonical Ed25519 public key, so repeat checks are free. */
const checkedKeys = new WeakSet<KeyObject>();

function usablePublicKey(publicKey: KeyObject | Uint8Array): KeyObject | undefined {
  if (publicKey instanceof KeyObject) {
    if (checkedKeys.has(publicKey)) return publicKey;
    if (publicKey.type === 'secret' || publicKey.asymmetricKeyType !== 'ed25519') return undefined;
    if (!isCanonicalPointEncoding(rawPublicKey(publicKey))) return undefined;
    checkedKeys.add(publicKey);
    return publicKey;
  }
  if (!(publicKey instanceof Uint8Array) || !isCanonicalPointEncoding(publicKey)) return undefined;
  return publicKeyFromRaw(publicKey);
}

/**
 * Strict Ed25519 verification (RFC 8032, agreeing with every Wycheproof vector): refuses signatures
 * that are not 64 bytes, S ≥ L, and non-canonical R or public-key encodings before OpenSSL sees them,
 * so the verdict does not depend on the OpenSSL build. Never throws; hostile input returns false.
 */
export function verifyEd25519(
  publicKey: KeyObject | Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  try {
    if (!(message instanceof Uint8Array) || !(signature instanceof Uint8Array)) return false;
    if (signature.length !== 64) return false;
    if (littleEndian(signature.subarray(32)) >= L) return false;
    if (!isCanonicalPointEncoding(signature.subarray(0, 32))) return false;
    const key = usablePublicKey(publicKey);
    if (key === undefined) return false;
    return verify(null, message, key, signature);
  } catch {
    return false;
  }
}
