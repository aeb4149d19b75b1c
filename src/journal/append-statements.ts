import type { ContentHash } from '../core/index.js';
import type { BatchStatement, Queryable } from '../store/index.js';
import { genesisHash } from './entry-hash.js';
import { ENTRY_COLUMNS, insertEntries } from './entry-row.js';
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

/** Entry rows (flattened columns) as multi-row INSERTs of at most ROWS_PER_INSERT rows each. */
export function insertStatements(rows: readonly (string | number | null)[]): BatchStatement[] {
  const width = ROWS_PER_INSERT * ENTRY_COLUMNS;
  const statements: BatchStatement[] = [];
  for (let i = 0; i < rows.length; i += width) {
    const chunk = rows.length <= width ? rows : rows.slice(i, i + width);
    statements.push({ sql: insertEntries(chunk.length / ENTRY_COLUMNS), params: chunk });
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
