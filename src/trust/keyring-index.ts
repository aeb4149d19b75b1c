import { CanonryError, type ContentHash, isContentHash, parseJsonText } from '../core/index.js';
import { hasKeys, ISO_INSTANT, isRecord, RAW_KEY, SERIAL } from './keyring-fields.js';

/** The lifecycle of an issuer in the index. */
export type IssuerStatus = 'active' | 'retired' | 'revoked';

/** One issuer in `keyring.json`. */
export interface IndexedIssuer {
  /** The issuer's sequence number: CN `canonry issuer <number>`, files `issuer-<number>.*`. */
  number: number;
  fingerprint: ContentHash;
  serial: string;
  created_at: string;
  status: IssuerStatus;
}

/** Where the root's private key lives: in this keyring (`local`) or on an offline machine. */
export type RootKeyLocation = 'local' | 'offline';

/** An issuer key generated for a certificate signing request, not yet certified by the root. */
export interface PendingIssuer {
  /** The number the issuer will have once installed. */
  number: number;
  /** The 32 raw bytes of its Ed25519 public key, base64url. */
  public_key: string;
  created_at: string;
}

/** The contents of `keyring.json` (format 2; format 1 is upgraded when read). */
export interface KeyringIndex {
  format: 2;
  /** True when the root is a development root (TCP/AP §10): not production-grade attestation. */
  development_root: boolean;
  root_key: RootKeyLocation;
  root_fingerprint: ContentHash;
  /** The issuer that signs now; null while a keyring with an offline root awaits one. */
  active_issuer: ContentHash | null;
  pending_issuer: PendingIssuer | null;
  issuers: IndexedIssuer[];
}

const STATUSES: readonly string[] = ['active', 'retired', 'revoked'];
const MAX_ISSUERS = 100_000;

function corrupt(message: string): CanonryError {
  return new CanonryError('KEYRING_CORRUPT', `keyring.json: ${message}`);
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[], what: string): void {
  if (!hasKeys(value, keys)) throw corrupt(`${what} has unexpected fields`);
}

function parseIssuer(value: unknown, at: number): IndexedIssuer {
  const what = `issuers[${at}]`;
  if (!isRecord(value)) throw corrupt(`${what} is not an object`);
  exactKeys(value, ['number', 'fingerprint', 'serial', 'created_at', 'status'], what);
  const { number, fingerprint, serial, created_at, status } = value;
  if (!Number.isSafeInteger(number) || (number as number) < 1 || (number as number) > 999_999_999) {
    throw corrupt(`${what}.number is not a positive integer`);
  }
  if (!isContentHash(fingerprint)) throw corrupt(`${what}.fingerprint is not a content hash`);
  if (typeof serial !== 'string' || !SERIAL.test(serial)) {
    throw corrupt(`${what}.serial is not hex`);
  }
  if (typeof created_at !== 'string' || !ISO_INSTANT.test(created_at)) {
    throw corrupt(`${what}.created_at is not an ISO 8601 instant`);
  }
  if (typeof status !== 'string' || !STATUSES.includes(status)) {
    throw corrupt(`${what}.status is not one of ${STATUSES.join(', ')}`);
  }
  return {
    number: number as number,
    fingerprint,
    serial,
    created_at,
    status: status as IssuerStatus,
  };
}

function allDistinct(values: readonly unknown[]): boolean {
  return new Set(values).size === values.length;
}

const FORMAT_1_KEYS = ['format', 'root_fingerprint', 'active_issuer', 'issuers'];
const FORMAT_2_KEYS = [...FORMAT_1_KEYS, 'development_root', 'root_key', 'pending_issuer'];

function parsePending(value: unknown): PendingIssuer | null {
  if (value === null) return null;
  if (!isRecord(value)) throw corrupt('pending_issuer is not an object');
  exactKeys(value, ['number', 'public_key', 'created_at'], 'pending_issuer');
  const { number, public_key, created_at } = value;
  if (!Number.isSafeInteger(number) || (number as number) < 1 || (number as number) > 999_999_999) {
    throw corrupt('pending_issuer.number is not a positive integer');
  }
  if (typeof public_key !== 'string' || !RAW_KEY.test(public_key)) {
    throw corrupt('pending_issuer.public_key is not a base64url Ed25519 key');
  }
  if (typeof created_at !== 'string' || !ISO_INSTANT.test(created_at)) {
    throw corrupt('pending_issuer.created_at is not an ISO 8601 instant');
  }
  return { number: number as number, public_key, created_at };
}

/**
 * Reads the fields every format has plus those of format 2. A format 1 index predates offline
 * roots: its root was minted by the server, key beside the issuer's, so it is a development root.
 */
function readFormat(
  value: Record<string, unknown>,
): Pick<KeyringIndex, 'development_root' | 'root_key' | 'pending_issuer'> {
  if (value.format === 1) {
    exactKeys(value, FORMAT_1_KEYS, 'index');
    return { development_root: true, root_key: 'local', pending_issuer: null };
  }
  if (value.format !== 2) throw corrupt('unsupported format (expected 1 or 2)');
  exactKeys(value, FORMAT_2_KEYS, 'index');
  const { development_root, root_key } = value;
  if (typeof development_root !== 'boolean') throw corrupt('development_root is not a boolean');
  if (root_key !== 'local' && root_key !== 'offline') {
    throw corrupt('root_key is not "local" or "offline"');
  }
  return {
    development_root,
    root_key,
    pending_issuer: parsePending(value.pending_issuer),
  };
}

/** Parses and checks `keyring.json`; anything unexpected is KEYRING_CORRUPT. */
export function parseKeyringIndex(text: string): KeyringIndex {
  let value: unknown;
  try {
    value = parseJsonText(text, 8);
  } catch {
    throw corrupt('not valid JSON');
  }
  if (!isRecord(value)) throw corrupt('not a JSON object');
  const { development_root, root_key, pending_issuer } = readFormat(value);
  const { root_fingerprint, active_issuer, issuers } = value;
  if (!isContentHash(root_fingerprint)) throw corrupt('root_fingerprint is not a content hash');
  if (active_issuer !== null && !isContentHash(active_issuer)) {
    throw corrupt('active_issuer is not a content hash or null');
  }
  if (!Array.isArray(issuers) || issuers.length > MAX_ISSUERS) {
    throw corrupt('issuers is not an array');
  }
  const parsed = issuers.map(parseIssuer);
  if (!allDistinct(parsed.map((i) => i.number)) || !allDistinct(parsed.map((i) => i.fingerprint))) {
    throw corrupt('issuer numbers and fingerprints must be unique');
  }
  if (!allDistinct(parsed.map((i) => i.serial))) throw corrupt('issuer serials must be unique');
  const active = parsed.filter((i) => i.status === 'active');
  if (active.length > 1 || (active[0]?.fingerprint ?? null) !== active_issuer) {
    throw corrupt('at most one issuer is active, and it must be active_issuer');
  }
  if (root_key === 'local' && (active_issuer === null || pending_issuer !== null)) {
    throw corrupt('a keyring holding its root key always has an active issuer and none pending');
  }
  if (root_key === 'local' && !development_root) {
    throw corrupt('a keyring holding its root key is a development root');
  }
  if (pending_issuer !== null && parsed.some((i) => i.number >= pending_issuer.number)) {
    throw corrupt('pending_issuer.number must be above every issuer number');
  }
  return {
    format: 2,
    development_root,
    root_key,
    root_fingerprint,
    active_issuer,
    pending_issuer,
    issuers: parsed,
  };
}

/** The text of `keyring.json` for an index. */
export function serializeKeyringIndex(index: KeyringIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}
