/**
 * A self-describing MAC over bytes: `hmac-sha256:<key id>:<64 hex>`. Nothing here knows what the
 * bytes are (the relay seals a CSO's canonical bytes with it).
 */
import type { HmacKeyring, HmacVerdict } from './hmac-keyring.js';

const ALGORITHM = 'hmac-sha256';
/** Long enough for any seal this module writes; longer text is refused before it is parsed. */
const MAX_SEAL_CHARS = 128;
const SEAL = /^hmac-sha256:([a-z0-9-]{1,32}):([0-9a-f]{64})$/;

/** Seals `bytes` with the project's current key (created on first use). */
export async function hmacSeal(
  keyring: HmacKeyring,
  project: string,
  bytes: Uint8Array,
): Promise<string> {
  const key = await keyring.current(project);
  return `${ALGORITHM}:${key.keyId}:${key.sign(bytes)}`;
}

/**
 * Checks a seal against `bytes`: `{ ok: true }`, or `ok: false` with `malformed` (not a seal),
 * `unknown-key` (no such key for this project) or `mismatch` (the bytes or the MAC changed).
 */
export async function hmacCheck(
  keyring: HmacKeyring,
  project: string,
  bytes: Uint8Array,
  seal: unknown,
): Promise<HmacVerdict> {
  const match = typeof seal === 'string' && seal.length <= MAX_SEAL_CHARS ? SEAL.exec(seal) : null;
  if (match === null) return { ok: false, reason: 'malformed' };
  return keyring.check(project, match[1], bytes, match[2]);
}
