import { CanonryError, type ContentHash, isContentHash, type JsonValue } from '../core/index.js';
import { perCount, rowPlaceholders } from '../store/index.js';
import { ENTRY_FORMAT, type JournalEntry, type ReceiptInput } from './types.js';

/** The stored columns of an entry, in the order of {@link EntryRow} and of `BuiltEntry.params`. */
export const ENTRY_COLUMN_NAMES =
  'project, seq, format, at, kind, body, actor, authority, correlation_id, idempotency_key, receipt, prev_hash, hash';

/** Every column of `journal_entries` in row order: add a WHERE clause and read with `values`. */
export const SELECT_ENTRIES = `SELECT ${ENTRY_COLUMN_NAMES} FROM journal_entries`;

/**
 * A row of `journal_entries` as `values(SELECT_ENTRIES …)` returns it: an array, because scans read
 * a million of them and an object per row costs as much as reading it.
 */
export type EntryRow = readonly [
  project: string,
  seq: number,
  format: number,
  at: string,
  kind: string,
  body: string,
  actor: string,
  authority: string,
  correlation_id: string | null,
  idempotency_key: string | null,
  receipt: string,
  prev_hash: string,
  hash: string,
];

/** Columns of one stored entry (parameters per row of {@link insertEntries}). */
export const ENTRY_COLUMNS = 13;

/** The statement that stores `rows` entries at once (parameters row after row); cached per count. */
export const insertEntries = perCount(
  (rows) =>
    `INSERT INTO journal_entries (${ENTRY_COLUMN_NAMES}) VALUES ${rowPlaceholders(rows, ENTRY_COLUMNS)}`,
);

/**
 * The same with each row's `parked_id` last (PostgreSQL): forwarded entries carry the id their
 * writer chose for them (append-forwarded.ts), other rows null.
 */
export const insertStampedEntries = perCount(
  (rows) =>
    `INSERT INTO journal_entries (${ENTRY_COLUMN_NAMES}, parked_id) VALUES ${rowPlaceholders(rows, ENTRY_COLUMNS + 1)}`,
);

/**
 * Reads a stored row back into an entry, upgrading older formats. Rows are hostile (the database can
 * be edited): a row that does not parse throws STORE_CORRUPT naming its seq. The body is not checked
 * against its kind here: readers narrow it with the kind (`kind.body(entry)`), and replay checks it.
 */
export function rowToEntry(row: EntryRow): JournalEntry {
  try {
    const entry: JournalEntry = {
      project: row[0],
      seq: Number(row[1]),
      format: Number(row[2]),
      at: row[3],
      kind: row[4],
      body: JSON.parse(row[5]) as unknown,
      actor: row[6],
      authority: JSON.parse(row[7]) as JsonValue,
      correlation_id: row[8],
      idempotency_key: row[9],
      receipt: JSON.parse(row[10]) as ReceiptInput | null,
      prev_hash: row[11] as ContentHash,
      hash: row[12] as ContentHash,
    };
    if (
      entry.format !== ENTRY_FORMAT ||
      !isContentHash(entry.hash) ||
      !isContentHash(entry.prev_hash)
    ) {
      throw new Error('unknown format or malformed hash');
    }
    return entry;
  } catch (err) {
    throw new CanonryError(
      'STORE_CORRUPT',
      `journal entry ${row[0]}#${row[1]} is unreadable`,
      { project: row[0], seq: Number(row[1]) },
      { cause: err },
    );
  }
}
