import { CanonryError, type ContentHash, isContentHash, parseJsonText } from '../core/index.js';

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

/** The contents of `keyring.json`. */
export interface KeyringIndex {
  format: 1;
  root_fingerprint: ContentHash;
  active_issuer: ContentHash;
  issuers: IndexedIssuer[];
}

const STATUSES: readonly string[] = ['active', 'retired', 'revoked'];
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const SERIAL = /^(?:[0-9a-f]{2}){1,20}$/;
const MAX_ISSUERS = 100_000;

function corrupt(message: string): CanonryError {
  return new CanonryError('KEYRING_CORRUPT', `keyring.json: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[], what: string): void {
  const actual = Object.keys(value).sort();
  if (actual.join() !== [...keys].sort().join()) throw corrupt(`${what} has unexpected fields`);
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

/** Parses and checks `keyring.json`; anything unexpected is KEYRING_CORRUPT. */
export function parseKeyringIndex(text: string): KeyringIndex {
  let value: unknown;
  try {
    value = parseJsonText(text, 8);
  } catch {
    throw corrupt('not valid JSON');
  }
  if (!isRecord(value)) throw corrupt('not a JSON object');
  exactKeys(value, ['format', 'root_fingerprint', 'active_issuer', 'issuers'], 'index');
  if (value.format !== 1) throw corrupt('unsupported format (expected 1)');
  const { root_fingerprint, active_issuer, issuers } = value;
  if (!isContentHash(root_fingerprint)) throw corrupt('root_fingerprint is not a content hash');
  if (!isContentHash(active_issuer)) throw corrupt('active_issuer is not a content hash');
  if (!Array.isArray(issuers) || issuers.length === 0 || issuers.length > MAX_ISSUERS) {
    throw corrupt('issuers is not a non-empty array');
  }
  const parsed = issuers.map(parseIssuer);
  if (!allDistinct(parsed.map((i) => i.number)) || !allDistinct(parsed.map((i) => i.fingerprint))) {
    throw corrupt('issuer numbers and fingerprints must be unique');
  }
  if (!allDistinct(parsed.map((i) => i.serial))) throw corrupt('issuer serials must be unique');
  const active = parsed.filter((i) => i.status === 'active');
  if (active.length !== 1 || active[0]?.fingerprint !== active_issuer) {
    throw corrupt('exactly one issuer must be active, and it must be active_issuer');
  }
  return { format: 1, root_fingerprint, active_issuer, issuers: parsed };
}

/** The text of `keyring.json` for an index. */
export function serializeKeyringIndex(index: KeyringIndex): string {
  return `${JSON.stringify(index, null, 2)}\n`;
}
