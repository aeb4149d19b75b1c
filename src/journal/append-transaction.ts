import { CanonryError, TurnPacer } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { AppendContext } from './append-context.js';
import { insertStatements, MOVE_HEAD, readHead } from './append-statements.js';
import { appended } from './appended.js';
import { storeCheckpoint } from './checkpoint-rows.js';
import { type BuiltEntry, buildChain } from './entry-hash.js';
import type { PreparedInput } from './entry-input.js';
import { markChecked } from './entry-kind.js';
import { type EntryRow, rowToEntry, SELECT_ENTRIES } from './entry-row.js';
import { applyProjections, settleProjections } from './projections.js';
import type { AppendOptions, AppendResult, Head, JournalEntry, Projection } from './types.js';

/** What the jobs of one transaction did to heads, not yet committed. */
export interface Batch {
  /** One timestamp for every entry the transaction commits. */
  readonly at: string;
  /** Each project's head as of now in this transaction (its row is locked). */
  readonly heads: Map<string, Head>;
  /** The seq each project's head row holds so far in this transaction, once this batch wrote it. */
  readonly stored: Map<string, number>;
  /** Entry rows not yet inserted, flattened: they go in with a few multi-row statements before COMMIT. */
  readonly rows: (string | number | null)[];
  /** Rows (by index) of forwarded entries, with the id their writer chose (`parked_id`). */
  readonly stamps: Map<number, string>;
  /** Idempotency keys appended in this transaction (`project \0 key`), not yet in the table. */
  readonly keys: Map<string, JournalEntry>;
  /** Projections applied in this transaction that settle before COMMIT. */
  readonly settling: Set<Projection>;
}

/** A fresh batch for one transaction. */
export function beginBatch(ctx: AppendContext): Batch {
  return {
    at: ctx.now().toISOString(),
    heads: new Map(),
    stored: new Map(),
    rows: [],
    stamps: new Map(),
    keys: new Map(),
    settling: new Set(),
  };
}

/**
 * Before COMMIT: settles the projections applied, inserts the batch's rows, and writes each head
 * row once — later appends of a batch build on the head the first one locked.
 */
export async function finishBatch(tx: Queryable, batch: Batch): Promise<void> {
  await settleProjections(tx, batch.settling);
  for (const { sql, params } of insertStatements(batch.rows, batch.stamps))
    await tx.run(sql, params);
  for (const [project, stored] of batch.stored) {
    const head = batch.heads.get(project)!;
    if (head.seq === stored) continue;
    await tx.run('UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1', [
      project,
      head.seq,
      head.hash,
    ]);
  }
}

/**
 * The transaction half of an append: without a decision to take, the entries are just written;
 * otherwise the head is locked, idempotency keys looked up, `expectedSeq` and the precondition
 * checked — a refusal fails this job alone — and then the entries and the caller's effects written.
 */
export async function checkInTransaction(
  ctx: AppendContext,
  tx: Queryable,
  batch: Batch,
  project: string,
  prepared: readonly PreparedInput[],
  options: AppendOptions,
  decides: boolean,
  /** The ids forwarded entries' writers chose for them (one an input): stored as `parked_id`. */
  stamps?: readonly string[],
): Promise<() => Promise<AppendResult[]>> {
  if (!decides) return () => write(ctx, tx, batch, project, prepared, new Map(), false, stamps);
  // What earlier jobs of this transaction projected is in the tables before this one's checks read.
  await settleProjections(tx, batch.settling);
  const { expectedSeq, precondition, effects } = options;
  const head = batch.heads.get(project) ?? (await lockedHead(ctx, tx, project));
  batch.heads.set(project, head);
  const duplicates = await findDuplicates(tx, batch, project, prepared);
  if (duplicates.size === prepared.length)
    return async () => prepared.map((_, i) => duplicates.get(i)!);
  if (expectedSeq !== undefined && expectedSeq !== head.seq) {
    throw new CanonryError(
      'CONFLICT',
      `the head of ${project} is seq ${head.seq}, not ${expectedSeq}`,
      { head },
    );
  }
  if (precondition) await precondition(tx, head);
  return async () => {
    const results = await write(ctx, tx, batch, project, prepared, duplicates, true);
    if (effects && duplicates.size < prepared.length) await effects(tx, results);
    return results;
  };
}

function lockedHead(ctx: AppendContext, tx: Queryable, project: string): Promise<Head> {
  return readHead(tx, project, ctx.store.capabilities.rowLocks);
}

async function findDuplicates(
  tx: Queryable,
  batch: Batch,
  project: string,
  inputs: readonly PreparedInput[],
): Promise<Map<number, AppendResult>> {
  const found = new Map<number, AppendResult>();
  for (let i = 0; i < inputs.length; i++) {
    const key = inputs[i]!.idempotency_key;
    if (key === null) continue;
    // Appended earlier in this very transaction: its row is not in the table yet.
    const pending = batch.keys.get(`${project}\u0000${key}`);
    if (pending) {
      found.set(i, appended(pending, true));
      continue;
    }
    const rows = await tx.values<EntryRow>(
      `${SELECT_ENTRIES} WHERE project = $1 AND idempotency_key = $2`,
      [project, key],
    );
    if (rows[0]) found.set(i, appended(rowToEntry(rows[0]), true));
  }
  return found;
}

async function write(
  ctx: AppendContext,
  tx: Queryable,
  batch: Batch,
  project: string,
  inputs: readonly PreparedInput[],
  duplicates: ReadonlyMap<number, AppendResult>,
  locked: boolean,
  stamps?: readonly string[],
): Promise<AppendResult[]> {
  const { at } = batch;
  let from =
    batch.heads.get(project) ?? ctx.heads.get(project) ?? (await lockedHead(ctx, tx, project));
  let built = buildChain(project, from, at, inputs, duplicates);
  // Once this batch has written the head row it holds its lock: later appends just build on it.
  if (!batch.stored.has(project) && !(await advance(tx, from, built))) {
    // Another writer moved the head since this process last saw it. A decision taken under a lock
    // that turned out stale must be taken again: refuse, and the queue retries the job alone.
    ctx.contention(project);
    if (locked) throw new CanonryError('CONFLICT', `the head of ${project} moved; retrying`);
    from = await lockedHead(ctx, tx, project);
    built = buildChain(project, from, at, inputs, duplicates);
    if (!(await advance(tx, from, built)))
      throw new CanonryError('CONFLICT', `the head of ${project} moved`);
  }
  const tail = built.at(-1);
  if (tail && !batch.stored.has(project)) batch.stored.set(project, tail.entry.seq);
  const results: AppendResult[] = [];
  // A batch's projections (a relay window's: canon's commits of its notes, ~20 statements an item)
  // are synchronous work on SQLite: held to turns of a few milliseconds. Other work on the store
  // waits for this transaction as before (the store runs one at a time); the event loop does not.
  const pacer = new TurnPacer();
  let i = 0;
  for (let n = 0; n < inputs.length; n++) {
    await pacer.pace();
    const duplicate = duplicates.get(n);
    if (duplicate) {
      results.push(duplicate);
      continue;
    }
    const { entry, params } = built[i++]!;
    const stamp = stamps?.[n];
    if (stamp !== undefined) batch.stamps.set(batch.rows.length / params.length, stamp);
    for (const value of params) batch.rows.push(value);
    if (entry.idempotency_key !== null)
      batch.keys.set(`${project}\u0000${entry.idempotency_key}`, entry);
    const consumers = ctx.consumers(entry.kind);
    if (consumers.length > 0) {
      // Its body was checked against its kind on the way in: projections read it without a second check.
      if (ctx.kinds) markChecked(entry);
      await applyProjections(tx, consumers, entry, batch.settling);
    }
    if (ctx.checkpointDue(entry.seq))
      await storeCheckpoint(tx, ctx.signCheckpoint(project, entry.seq, entry.hash));
    results.push(appended(entry, false));
  }
  if (tail) batch.heads.set(project, { project, seq: tail.entry.seq, hash: tail.entry.hash });
  return results;
}

/** Moves the head from `from` to the last built entry if it is still at `from` (compare-and-set). */
async function advance(tx: Queryable, from: Head, built: readonly BuiltEntry[]): Promise<boolean> {
  const last = built.at(-1);
  if (!last) return true;
  if (from.seq === 0) {
    const created = await tx.run(
      'INSERT INTO journal_heads (project, seq, hash) VALUES ($1, $2, $3) ON CONFLICT (project) DO NOTHING',
      [from.project, last.entry.seq, last.entry.hash],
    );
    return created === 1;
  }
  const moved = await tx.run(MOVE_HEAD, [
    from.project,
    last.entry.seq,
    last.entry.hash,
    from.seq,
    from.hash,
  ]);
  return moved === 1;
}
