import { perCount } from '../store/index.js';
import type { AppendContext, PlainAppend } from './append-context.js';
import { pushStamped } from './append-statements.js';
import { appended } from './appended.js';
import { buildChainInto } from './entry-hash.js';
import { ENTRY_COLUMN_NAMES, ENTRY_COLUMNS } from './entry-row.js';
import { settleStatement } from './settle-unknown.js';
import type { AppendResult, Head } from './types.js';

/**
 * Plain appends of one project committed together in one autocommit statement, on an engine with
 * data-modifying CTEs (PostgreSQL): the head moved by compare-and-set and every entry inserted, one
 * round trip for the group where a transaction takes five (BEGIN, the head, the rows, the head
 * again, COMMIT). This is how a project's leader commits the appends other processes forward to it
 * (append-forwarded.ts), and how any pool of writers on one project commits its plain appends.
 *
 * Built from the head this process expects (the last committed, or the tail of a group still in
 * flight); when another writer moved it, nothing is inserted and the group is refused whole, as is
 * any later one built on it: their appends then run in transactions, which read the head under the
 * lock. Undefined (a transaction instead) for a group over several projects, past
 * {@link MAX_TOGETHER}, with a checkpoint due, or when the head is not known.
 */

/** Entries per statement at most (each count is a statement text the server prepares once). */
export const MAX_TOGETHER = 64;

/** The parameters per row: an entry's columns and its `parked_id`. */
const WIDTH = ENTRY_COLUMNS + 1;

/** One cast per column, so every row's parameters get the column's type. */
const CASTS = ['', '::bigint', '::integer', '', '', '', '', '', '', '', '', '', '', '::bigint'];

const TOGETHER = perCount((rows) => {
  const values: string[] = [];
  for (let r = 0; r < rows; r++) {
    const first = 6 + r * WIDTH;
    values.push(`(${CASTS.map((cast, c) => `$${first + c}${cast}`).join(', ')})`);
  }
  return `WITH moved AS (
    UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1 AND seq = $4 AND hash = $5 RETURNING project
  )
  INSERT INTO journal_entries (${ENTRY_COLUMN_NAMES}, parked_id)
  SELECT v.* FROM (VALUES ${values.join(', ')}) AS v WHERE EXISTS (SELECT 1 FROM moved)`;
});

export function appendTogether(
  ctx: AppendContext,
  plains: readonly PlainAppend[],
): Promise<AppendResult[][] | undefined> | undefined {
  if (!ctx.store.capabilities.dataModifyingCte || plains.length === 0) return undefined;
  const project = plains[0]!.project;
  const from = ctx.assumed.get(project) ?? ctx.heads.get(project);
  if (!from) return undefined;
  const at = ctx.now().toISOString();
  const entryRows: (string | number | null)[] = [];
  const params: (string | number | null)[] = [];
  const results: AppendResult[][] = [];
  let tail: Head = from;
  let count = 0;
  for (const plain of plains) {
    if (plain.project !== project) return undefined;
    count += plain.inputs.length;
    if (count > MAX_TOGETHER) return undefined;
    entryRows.length = 0;
    const entries = buildChainInto(project, tail, at, plain.inputs, entryRows);
    const mine: AppendResult[] = [];
    entries.forEach((entry, i) => {
      pushStamped(params, entryRows, i, plain.stamps?.[i]);
      mine.push(appended(entry, false));
    });
    results.push(mine);
    const last = entries.at(-1)!;
    if (entries.some((e) => ctx.checkpointDue(e.seq))) return undefined;
    tail = { project, seq: last.seq, hash: last.hash };
  }
  ctx.assumed.set(project, tail);
  const forget = () => {
    ctx.assumed.delete(project);
    ctx.heads.delete(project);
  };
  return ctx.store
    .run(TOGETHER(count), [project, tail.seq, tail.hash, from.seq, from.hash, ...params])
    .then(
      (inserted) => {
        if (inserted !== count) {
          // Another writer moved the head (this process has one group in flight at a time).
          forget();
          ctx.contention(project);
          return undefined;
        }
        ctx.committed(tail);
        // No later group of this project is in flight: what was assumed is now known.
        if (ctx.assumed.get(project)?.seq === tail.seq) ctx.assumed.delete(project);
        return results;
      },
      async (err: unknown) => {
        forget();
        // An autocommit statement whose connection failed may have committed: never run it again
        // unless reading it back settles whether it did (when it never will, its appends run in
        // transactions).
        if ((await settleStatement(ctx.store, tail, err)) === 'absent') return undefined;
        ctx.committed(tail);
        return results;
      },
    );
}
