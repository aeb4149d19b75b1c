/**
 * HMAC key material: names (project, key id), the secret held as a `KeyObject` (it prints and
 * serializes as nothing), signing and constant-time verification, and `CANONRY_HMAC_KEY`.
 */
import {
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  timingSafeEqual,
} from 'node:crypto';
import { CanonryError, isProjectName } from '../core/index.js';

/** Bytes of every key canonry generates, and the least an external key may have. */
export const HMAC_KEY_BYTES = 32;

/** The variable that supplies one externally managed key for every project. */
export const HMAC_KEY_VARIABLE = 'CANONRY_HMAC_KEY';

/** The longest `CANONRY_HMAC_KEY` read (about 768 bytes of key); longer is malformed. */
const MAX_ENV_CHARS = 1024;

/** The most keys one project may have (rotations are operator actions, never per request). */
export const MAX_KEYS_PER_PROJECT = 10_000;

/** Key ids: `k<n>` for keys canonry generated, `env-<8 hex>` for the environment's key. */
export const FILE_KEY_ID = /^k([1-9][0-9]{0,4})$/;
const ENV_KEY_ID = /^env-[0-9a-f]{8}$/;

/** Throws INVALID_PROJECT unless `project` is a project name (it becomes a directory name). */
export function checkProject(project: unknown): string {
  if (!isProjectName(project)) {
    throw new CanonryError(
      'INVALID_PROJECT',
      'project names are 1-64 of a-z 0-9 _ -, starting with a-z or 0-9',
    );
  }
  return project;
}

/** Whether `id` has the form of some key id (known or not). */
export function isKeyId(id: unknown): id is string {
  return typeof id === 'string' && (FILE_KEY_ID.test(id) || ENV_KEY_ID.test(id));
}

/** The id of key number `n`. */
export function fileKeyId(n: number): string {
  return `k${n}`;
}

/** A key with its id; the secret is a `KeyObject`, so printing or serializing shows no bytes. */
export interface HeldKey {
  readonly keyId: string;
  readonly secret: KeyObject;
}

/** Wraps raw bytes (copied; the caller should drop its buffer) as a held key. */
export function holdKey(keyId: string, bytes: Uint8Array): HeldKey {
  return Object.freeze({ keyId, secret: createSecretKey(Buffer.from(bytes)) });
}

/** HMAC-SHA256 of `bytes`, lowercase hex. */
export function hmacHex(key: HeldKey, bytes: Uint8Array): string {
  return createHmac('sha256', key.secret).update(bytes).digest('hex');
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** Whether `hex` is the HMAC of `bytes` under `key`, compared in constant time. */
export function hmacMatches(key: HeldKey, bytes: Uint8Array, hex: unknown): boolean {
  if (typeof hex !== 'string' || !HEX_DIGEST.test(hex)) return false;
  const expected = createHmac('sha256', key.secret).update(bytes).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/**
 * Reads `CANONRY_HMAC_KEY`: hex (only hex digits, even length) or base64 / base64url (padding
 * optional), at least 32 bytes. The error names the variable and never echoes the value.
 */
export function parseEnvironmentKey(value: string): Buffer {
  const bad = (why: string) =>
    new CanonryError('INVALID_ARGUMENT', `${HMAC_KEY_VARIABLE} ${why}`, {
      variable: HMAC_KEY_VARIABLE,
    });
  const text = value.trim();
  if (text.length > MAX_ENV_CHARS) throw bad(`is longer than ${MAX_ENV_CHARS} characters`);
  let bytes: Buffer;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) {
    bytes = Buffer.from(text, 'hex');
  } else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bare = text.replace(/=+$/, '');
    bytes = Buffer.from(bare.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // Re-encoding must give the text back: no stray bits, no mixed or wrong padding.
    const again = bytes.toString('base64').replace(/=+$/, '');
    const canonical = bare.replace(/-/g, '+').replace(/_/g, '/');
    if (again !== canonical || (text.length !== bare.length && text.length % 4 !== 0)) {
      throw bad('is not canonical base64 or hex');
    }
  } else {
    throw bad('is neither hex nor base64');
  }
  if (bytes.length < HMAC_KEY_BYTES) {
    throw bad(`decodes to ${bytes.length} bytes; it needs at least ${HMAC_KEY_BYTES}`);
  }
  return bytes;
}

/** `env-<8 hex>`: from a hash of the key (domain-separated), so a changed key gets a new id. */
export function environmentKeyId(master: Uint8Array): string {
  const digest = createHash('sha256').update('canonry hmac key id\0').update(master).digest('hex');
  return `env-${digest.slice(0, 8)}`;
}

/**
 * The project's key derived from the environment's master key (HKDF-SHA256, empty salt, info
 * `canonry hmac key v1 project:<project>`): one key to manage, yet no two projects share a key,
 * so a seal from one project never checks in another.
 */
export function deriveProjectKey(master: KeyObject, project: string): Buffer {
  const info = `canonry hmac key v1 project:${project}`;
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, HMAC_KEY_BYTES));
}
