import { CanonryError, type ContentHash, isContentHash, parseJsonText } from '../core/index.js';
import { hasKeys, ISO_INSTANT, isRecord, RAW_KEY, SERIAL } from './keyring-fields.js';

/** One certificate the offline root has issued, as `issued.json` records it. */
export interface IssuedEntry {
  fingerprint: ContentHash;
  serial: string;
  /** The subject common name, `canonry issuer <n>`. */
  common_name: string;
  /** The 32 raw bytes of the certified Ed25519 key, base64url. */
  public_key: string;
  issued_at: string;
  /** Null until the root revokes it. */
  revoked_at: string | null;
  /** The certificate itself (PEM), so a lost copy can be handed out again. */
  certificate: string;
}

/** The contents of `issued.json`, the offline root's record of what it signed. */
export interface IssuanceLog {
  format: 1;
  root_fingerprint: ContentHash;
  issued: IssuedEntry[];
}

const ENTRY_KEYS = [
  'certificate',
  'common_name',
  'fingerprint',
  'issued_at',
  'public_key',
  'revoked_at',
  'serial',
];

function corrupt(message: string): CanonryError {
  return new CanonryError('KEYRING_CORRUPT', `issued.json: ${message}`);
}

function parseEntry(value: unknown, at: number): IssuedEntry {
  const e = value as Record<string, unknown>;
  const valid =
    isRecord(value) &&
    hasKeys(e, ENTRY_KEYS) &&
    isContentHash(e.fingerprint) &&
    typeof e.serial === 'string' &&
    SERIAL.test(e.serial) &&
    typeof e.common_name === 'string' &&
    typeof e.public_key === 'string' &&
    RAW_KEY.test(e.public_key) &&
    typeof e.issued_at === 'string' &&
    ISO_INSTANT.test(e.issued_at) &&
    (e.revoked_at === null ||
      (typeof e.revoked_at === 'string' && ISO_INSTANT.test(e.revoked_at))) &&
    typeof e.certificate === 'string';
  if (!valid) throw corrupt(`issued[${at}] is malformed`);
  return e as unknown as IssuedEntry;
}

/** Parses and checks `issued.json`; anything unexpected is KEYRING_CORRUPT. */
export function parseIssuanceLog(text: string): IssuanceLog {
  let value: unknown;
  try {
    value = parseJsonText(text, 8);
  } catch {
    throw corrupt('not valid JSON');
  }
  if (!isRecord(value) || !hasKeys(value, ['format', 'root_fingerprint', 'issued'])) {
    throw corrupt('not an issuance log');
  }
  if (value.format !== 1) throw corrupt('unsupported format (expected 1)');
  if (!isContentHash(value.root_fingerprint)) throw corrupt('root_fingerprint is not a hash');
  if (!Array.isArray(value.issued)) throw corrupt('issued is not an array');
  const issued = value.issued.map(parseEntry);
  for (const field of ['fingerprint', 'serial', 'public_key'] as const) {
    if (new Set(issued.map((e) => e[field])).size !== issued.length) {
      throw corrupt(`${field} values must be unique`);
    }
  }
  return { format: 1, root_fingerprint: value.root_fingerprint, issued };
}

/** The text of `issued.json`. */
export function serializeIssuanceLog(log: IssuanceLog): string {
  return `${JSON.stringify(log, null, 2)}\n`;
}
