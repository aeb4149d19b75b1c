// The field shapes the keyring's JSON files share (keyring.json, the offline root's issued.json).

/** An RFC 3339 instant in UTC, as the keyring writes them. */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
/** A certificate serial: 1–20 bytes of lowercase hex. */
export const SERIAL = /^(?:[0-9a-f]{2}){1,20}$/;
/** A raw Ed25519 public key, base64url without padding. */
export const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` has exactly `keys`, in any order. */
export function hasKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return Object.keys(value).sort().join() === [...keys].sort().join();
}
