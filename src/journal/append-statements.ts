import type { ContentHash } from '../core/index.js';
import type { BatchStatement, Queryable } from '../store/index.js';
import { genesisHash } from './entry-hash.js';
import { ENTRY_COLUMNS, insertEntries, insertStampedEntries } from './entry-row.js';
import type { Head } from './types.js';

/** Rows per multi-row INSERT (13 parameters each, well under every engine's limit). */
const ROWS_PER_INSERT = 100;

/**
 * Moves a head by compare-and-set on its seq and hash: changes no row when another writer moved it
 * first. The hash matters for pipelined batches: one built on an earlier batch of this process that
 * was refused assumes a head that never existed, and another writer may have left the head at that
 * very seq with other entries.
 */
export const MOVE_HEAD =
  'UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1 AND seq = $4 AND hash = $5';

/**
 * Entry rows (flattened columns) as multi-row INSERTs of at most ROWS_PER_INSERT rows each. With
 * `stamps` (row index → the id a forwarded entry's writer chose), each row also gets its
 * `parked_id` (PostgreSQL only).
 */
export function insertStatements(
  rows: readonly (string | number | null)[],
  stamps?: ReadonlyMap<number, string>,
): BatchStatement[] {
  if (stamps !== undefined && stamps.size > 0) return stampedStatements(rows, stamps);
  const width = ROWS_PER_INSERT * ENTRY_COLUMNS;
  const statements: BatchStatement[] = [];
  for (let i = 0; i < rows.length; i += width) {
    const chunk = rows.length <= width ? rows : rows.slice(i, i + width);
    statements.push({ sql: insertEntries(chunk.length / ENTRY_COLUMNS), params: chunk });
  }
  return statements;
}

/** Row `r` of flattened entry rows onto `out`, then its `parked_id` (`stamp`, or null). */
export function pushStamped(
  out: (string | number | null)[],
  rows: readonly (string | number | null)[],
  r: number,
  stamp: string | undefined,
): void {
  for (let c = r * ENTRY_COLUMNS; c < (r + 1) * ENTRY_COLUMNS; c++) out.push(rows[c]!);
  out.push(stamp ?? null);
}

function stampedStatements(
  rows: readonly (string | number | null)[],
  stamps: ReadonlyMap<number, string>,
): BatchStatement[] {
  const statements: BatchStatement[] = [];
  const count = rows.length / ENTRY_COLUMNS;
  for (let first = 0; first < count; first += ROWS_PER_INSERT) {
    const end = Math.min(count, first + ROWS_PER_INSERT);
    const params: (string | number | null)[] = [];
    for (let r = first; r < end; r++) pushStamped(params, rows, r, stamps.get(r));
    statements.push({ sql: insertStampedEntries(end - first), params });
  }
  return statements;
}

/**
 * The head as stored (seq 0 and the genesis hash when none); with `lock`, locked for the
 * transaction where the engine has row locks.
 */
export async function readHead(
  db: Pick<Queryable, 'all'>,
  project: string,
  lock: boolean,
): Promise<Head> {
  const rows = await db.all<{ seq: number; hash: string }>(
    `SELECT seq, hash FROM journal_heads WHERE project = $1${lock ? ' FOR UPDATE' : ''}`,
    [project],
  );
  if (!rows[0]) return { project, seq: 0, hash: genesisHash(project) };
  return { project, seq: Number(rows[0].seq), hash: rows[0].hash as ContentHash };
}
