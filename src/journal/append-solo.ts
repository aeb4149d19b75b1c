import type { AppendContext } from './append-context.js';
import { appended } from './appended.js';
import { buildEntry } from './entry-hash.js';
import type { PreparedInput } from './entry-input.js';
import { ENTRY_COLUMN_NAMES } from './entry-row.js';
import { settleStatement } from './settle-unknown.js';
import type { AppendResult } from './types.js';

/** Moves a head by compare-and-set and inserts the entry, atomically, in one statement. */
const SOLO_APPEND = `WITH moved AS (
    UPDATE journal_heads SET seq = $2, hash = $13 WHERE project = $1 AND seq = $14 AND hash = $12 RETURNING project
  )
  INSERT INTO journal_entries (${ENTRY_COLUMN_NAMES})
  SELECT $1, $2::bigint, $3::integer, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 FROM moved`;

/**
 * One plain entry on an engine with data-modifying CTEs: head move and insert in one autocommit
 * statement — one round trip instead of four. Only from a known head, for kinds no projection
 * reads, off checkpoint boundaries; otherwise (or if the head moved) undefined, and a transaction.
 * A statement whose connection failed may have run: read back, it succeeds when it did and runs
 * again in a transaction when it never will; else the failure says its outcome is unknown
 * (`settleStatement`).
 */
export async function appendSolo(
  ctx: AppendContext,
  project: string,
  input: PreparedInput,
): Promise<AppendResult[] | undefined> {
  const from = ctx.heads.get(project);
  if (
    !ctx.store.capabilities.dataModifyingCte ||
    !from ||
    // A checkpoint is signed in the transaction that appends its entry.
    ctx.checkpointDue(from.seq + 1) ||
    ctx.consumers(input.kind).length > 0
  ) {
    return undefined;
  }
  const { entry, params } = buildEntry(
    project,
    from.seq + 1,
    from.hash,
    ctx.now().toISOString(),
    input,
  );
  let inserted: number;
  try {
    inserted = await ctx.store.run(SOLO_APPEND, [...params, from.seq]);
  } catch (err) {
    ctx.heads.delete(project);
    // Never committed and never will: it runs again, in a transaction.
    if ((await settleStatement(ctx.store, entry, err)) === 'absent') return undefined;
    inserted = 1;
  }
  if (inserted !== 1) {
    ctx.contention(project);
    return undefined;
  }
  ctx.committed({ project, seq: entry.seq, hash: entry.hash });
  return [appended(entry, false)];
}
