import { type BatchStatement, isUnknownOutcome } from '../store/index.js';
import type { AppendContext, PlainAppend } from './append-context.js';
import { insertStatements, MOVE_HEAD } from './append-statements.js';
import { appended } from './appended.js';
import { checkpointParams, INSERT_CHECKPOINT } from './checkpoint-rows.js';
import { buildChainInto } from './entry-hash.js';
import { inDoubt, settleLost } from './settle-unknown.js';
import type { AppendResult, Head } from './types.js';

/**
 * Plain appends committed by the store's background writer: built here from the head this process
 * expects (the last committed one, or the tail of a batch still in flight), each project's head moved
 * by compare-and-set in the batch's transaction. If another writer moved a head, the batch is
 * refused whole, and so is any later one built on it; their appends then run in transactions,
 * which read the head under the lock. Undefined when a head is not known yet.
 *
 * When the writer's thread dies with the batch in flight, whether it committed is read back: the
 * thread's connection is closed by then (SQLite rolls back what it had not committed), so a batch
 * whose last entries are stored committed — its appends succeed, and followers are told — and one
 * whose entries are not never will: its appends run again in transactions, written once.
 */
export function appendInBackground(
  ctx: AppendContext,
  plains: readonly PlainAppend[],
): Promise<AppendResult[][] | undefined> | undefined {
  const writer = ctx.store.background;
  if (!writer) return undefined;
  const at = ctx.now().toISOString();
  const froms = new Map<string, Head>();
  const tails = new Map<string, Head>();
  const rows = new Map<string, (string | number | null)[]>();
  const checkpoints: BatchStatement[] = [];
  const results: AppendResult[][] = [];
  for (const { project, inputs } of plains) {
    const from = tails.get(project) ?? ctx.assumed.get(project) ?? ctx.heads.get(project);
    if (!from) return undefined;
    let values = rows.get(project);
    if (values === undefined) {
      froms.set(project, from);
      values = [];
      rows.set(project, values);
    }
    const entries = buildChainInto(project, from, at, inputs, values);
    const appendedHere: AppendResult[] = [];
    for (const entry of entries) {
      if (ctx.checkpointDue(entry.seq)) {
        const checkpoint = ctx.signCheckpoint(project, entry.seq, entry.hash);
        checkpoints.push({ sql: INSERT_CHECKPOINT, params: checkpointParams(checkpoint) });
      }
      appendedHere.push(appended(entry, false));
    }
    const last = entries.at(-1)!;
    tails.set(project, { project, seq: last.seq, hash: last.hash });
    results.push(appendedHere);
  }
  const statements: BatchStatement[] = [];
  for (const [project, from] of froms) {
    const tail = tails.get(project)!;
    statements.push({
      sql: MOVE_HEAD,
      params: [project, tail.seq, tail.hash, from.seq, from.hash],
      expectChanges: 1,
    });
    for (const insert of insertStatements(rows.get(project)!)) statements.push(insert);
  }
  for (const checkpoint of checkpoints) statements.push(checkpoint);
  for (const [project, tail] of tails) ctx.assumed.set(project, tail);
  return writer.commit(statements).then(
    (committed) => {
      if (!committed) {
        forget(ctx, tails.keys());
        return undefined;
      }
      for (const [project, tail] of tails) {
        ctx.committed(tail);
        // No later batch of this project is in flight: what was assumed is now known.
        if (ctx.assumed.get(project)?.seq === tail.seq) ctx.assumed.delete(project);
      }
      return results;
    },
    async (err: unknown) => {
      forget(ctx, tails.keys());
      if (!isUnknownOutcome(err)) throw err;
      // The thread has exited (its connection closed): what is read back is final.
      const settled = await settleLost(ctx.store, tails.values(), err, true);
      if (settled === 'absent') return undefined;
      if (settled === undefined) throw inDoubt(err, ctx.store, tails.values(), true);
      for (const tail of tails.values()) ctx.committed(tail);
      return results;
    },
  );
}

/** After a refused or failed batch, this process no longer knows these heads: read them next. */
function forget(ctx: AppendContext, projects: Iterable<string>): void {
  for (const project of projects) {
    ctx.assumed.delete(project);
    ctx.heads.delete(project);
  }
}
