import type { ContentHash } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { AppendContext } from './append-context.js';
import { insertStatements, readHead } from './append-statements.js';
import { appended } from './appended.js';
import { storeCheckpoint } from './checkpoint-rows.js';
import { buildEntry, rowHash } from './entry-hash.js';
import type { PreparedInput } from './entry-input.js';
import type { EntryRow } from './entry-row.js';
import { type AppendResult, ENTRY_FORMAT, type Head } from './types.js';

/** How long a project counts as contended after the last sign of another writer on its head. */
export const CONTENDED_MS = 2_000;

/** Parked appends chained by one statement or transaction at most; the rest wait for the next. */
const MAX_CHAIN = 256;

/** Parks an append and tries, without waiting, to chain (`canonry_park`, schema.ts). */
const PARK = `SELECT id, state, seq, at, prev_hash, hash
  FROM canonry_park($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

/** Takes the head (waiting for it with $3) and chains, or finds the row placed meanwhile. */
const CHAIN = `SELECT state, seq, at, prev_hash, hash
  FROM canonry_chain_parked($1, $2, $3::boolean, $4, $5, $6)`;

/** Waits until no writer is chaining the project, then takes the row back if it was placed. */
const AWAIT = 'SELECT seq, at, prev_hash, hash FROM canonry_await_parked($1, $2)';

/** The advisory lock a chaining writer holds to its commit (`canonry_chain_parked`). */
const CHAINING_LOCK = 'SELECT pg_advisory_xact_lock(1667329647, hashtext($1))';

/**
 * Takes a placed row back: when a chaining transaction has locked it, this waits for that
 * transaction and returns the row's place once it commits (nothing if it was never placed).
 */
const CLAIM =
  'DELETE FROM journal_parked WHERE id = $1 AND seq IS NOT NULL RETURNING seq, at, prev_hash, hash';
const UNPARK = 'DELETE FROM journal_parked WHERE id = $1 AND seq IS NULL';
const DROP = 'DELETE FROM journal_parked WHERE id = $1';

/** The checkpoint case, chained here so the writer can sign it: the parked rows, under the head. */
const WAITING = `SELECT id, at, kind, actor, correlation_id, body, authority, receipt, seq, prev_hash, hash
  FROM journal_parked WHERE project = $1 AND (seq IS NULL OR id = $2) ORDER BY id LIMIT ${MAX_CHAIN + 1}
  FOR UPDATE`;
const PLACE = `UPDATE journal_parked AS p SET seq = x.seq, prev_hash = x.prev_hash, hash = x.hash
  FROM json_to_recordset($1::json) AS x(id bigint, seq bigint, prev_hash text, hash text)
  WHERE p.id = x.id`;

/** Where a parked append landed in the chain. */
interface Place {
  readonly seq: number;
  readonly at: string;
  readonly prev_hash: ContentHash;
  readonly hash: ContentHash;
}

/**
 * What a try to chain came to for one parked append (see `canonry_chain_parked`): `placed` (with
 * its place), `busy` (another writer holds the head), `no-head`, `checkpoint` (stopped before an
 * entry a checkpoint is due at, which a writer must sign), `again` (not among the first MAX_CHAIN),
 * `gone` (its row was swept: the append's outcome is lost).
 */
type Outcome =
  | { readonly state: 'placed'; readonly place: Place }
  | { readonly state: 'busy' | 'no-head' | 'checkpoint' | 'again' | 'gone' };

interface OutcomeRow {
  readonly state: string;
  readonly seq: string | number | null;
  readonly at: string | null;
  readonly prev_hash: string | null;
  readonly hash: string | null;
}

interface ParkedRow extends OutcomeRow {
  readonly id: string | number;
  readonly kind: string;
  readonly actor: string;
  readonly correlation_id: string | null;
  readonly body: string;
  readonly authority: string;
  readonly receipt: string;
}

/**
 * Plain appends to a project whose head other processes keep moving (engines with row locks shared
 * by many processes: PostgreSQL). Each entry of a chain must take the head in turn, and a
 * transaction holds the head's lock through its commit's flush, so writers that each commit their
 * own entry serialise on one flush apiece: eight processes appending to one project reached a tenth
 * of what the same connections insert. Here an append parks its canonical texts in `journal_parked`
 * (an unlogged table: no flush) and, in the same statement, tries to take the head; whoever has it
 * chains every parked append of the project inside the database — one statement, one flush for the
 * appends of every process — and writes each row's place (seq, prev_hash, hash) back. A writer
 * whose row another is chaining claims it: the claim waits on the row's lock and returns its place
 * once that commit lands. Either way the writer rebuilds its entry from its own input and the place
 * and refuses to acknowledge an entry whose hash is not the one the chain committed.
 *
 * An append is acknowledged only once its entry is committed in the chain. A process that dies with
 * a row parked leaves it for the next writer to chain, like a transaction whose reply was lost; a
 * crash of the database empties the unlogged table, and the appends parked there were never
 * acknowledged. Idempotency keys, expected seqs, preconditions and projections never come here:
 * they decide under the head's lock in a transaction of their own.
 */
export class ParkedAppends {
  readonly #ctx: AppendContext;
  readonly #every: number;
  /** Per project, until when it counts as contended. */
  readonly #contended = new Map<string, number>();
  readonly #clock: () => number;

  /** `every`: checkpoints are signed every this many entries (0: none). */
  constructor(ctx: AppendContext, every: number, clock: () => number = Date.now) {
    this.#ctx = ctx;
    this.#every = every;
    this.#clock = clock;
  }

  /** Another writer moved the head of `project` under this process (a compare-and-set failed). */
  contention(project: string): void {
    this.#contended.set(project, this.#clock() + CONTENDED_MS);
  }

  /** Whether plain appends to `project` should park: another writer moved its head recently. */
  contended(project: string): boolean {
    const until = this.#contended.get(project);
    if (until === undefined) return false;
    if (until > this.#clock()) return true;
    this.#contended.delete(project);
    return false;
  }

  /**
   * Appends one plain entry through the parking table; undefined when the project has no head yet
   * (the first append creates it in a transaction).
   */
  async append(project: string, input: PreparedInput): Promise<AppendResult[] | undefined> {
    const store = this.#ctx.store;
    const at = this.#ctx.now().toISOString();
    const [parked] = await store.all<OutcomeRow & { id: string | number }>(PARK, [
      project,
      at,
      input.kind,
      input.actor,
      input.correlation_id,
      input.bodyText,
      input.authorityText,
      input.receiptText,
      this.#every,
      ENTRY_FORMAT,
      MAX_CHAIN,
    ]);
    const id = String(parked!.id);
    let outcome = outcomeOf(parked!);
    let missed = 0;
    for (;;) {
      switch (outcome.state) {
        case 'placed': {
          const result = this.#result(project, input, outcome.place);
          // Followers and checkpoint timers hear of it as of any commit this process made.
          this.#ctx.committed({ project, seq: result.entry.seq, hash: result.entry.hash });
          return [result];
        }
        case 'busy': {
          this.contention(project);
          // Another writer is chaining: wait for its commit (with every other waiter at once) and
          // take this row back if it was in that chain.
          const [row] = await store.all<OutcomeRow>(AWAIT, [project, id]);
          if (row) {
            outcome = { state: 'placed', place: placeOf(row) };
            break;
          }
          // Parked after that chain began: chain it, unless someone already is — then wait for
          // that one, which takes it. Twice missed (the head held by a writer that does not chain
          // parked rows), queue for the head itself.
          outcome = await this.#chainInDatabase(project, id, ++missed > 2);
          break;
        }
        case 'again':
          outcome = await this.#chainInDatabase(project, id, false);
          break;
        case 'checkpoint':
          outcome = await this.#chainHere(project, id);
          break;
        case 'no-head': {
          if ((await store.run(UNPARK, [id])) === 1) return undefined;
          const place = await this.#claim(id);
          if (!place) throw new Error(`parked append ${id} of ${project} vanished`);
          outcome = { state: 'placed', place };
          break;
        }
        case 'gone':
          // Placed so long ago that it was swept before this writer claimed it.
          throw new Error(`parked append ${id} of ${project} is gone; its outcome is unknown`);
      }
    }
  }

  async #claim(id: string): Promise<Place | undefined> {
    const [row] = await this.#ctx.store.all<OutcomeRow>(CLAIM, [id]);
    return row ? placeOf(row) : undefined;
  }

  async #chainInDatabase(project: string, id: string, wait: boolean): Promise<Outcome> {
    const [row] = await this.#ctx.store.all<OutcomeRow>(CHAIN, [
      project,
      id,
      wait ? 'true' : 'false',
      this.#every,
      ENTRY_FORMAT,
      MAX_CHAIN,
    ]);
    return outcomeOf(row!);
  }

  /**
   * The chain the database stopped: its next entry is one a checkpoint is due at, and only this
   * process holds a signer. Takes the head, chains the parked rows here — signing that checkpoint —
   * or finds this one placed meanwhile.
   */
  #chainHere(project: string, id: string): Promise<Outcome> {
    const ctx = this.#ctx;
    let moved: Head | undefined;
    return ctx.store
      .transaction(async (tx): Promise<Outcome> => {
        moved = undefined;
        const from = await readHead(tx, project, true);
        if (from.seq === 0) return { state: 'no-head' };
        await tx.all(CHAINING_LOCK, [project]);
        const rows = await tx.all<ParkedRow>(WAITING, [project, id]);
        const own = rows.find((row) => String(row.id) === id);
        if (own && own.seq !== null) {
          await tx.run(DROP, [id]);
          return { state: 'placed', place: placeOf(own) };
        }
        if (!own && rows.length <= MAX_CHAIN) return { state: 'gone' };
        const placed = await placeRows(
          ctx,
          tx,
          from,
          rows.filter((row) => row.seq === null),
          id,
        );
        moved = placed.head;
        return placed.own ? { state: 'placed', place: placed.own } : { state: 'again' };
      })
      .then((outcome) => {
        if (moved) ctx.committed(moved);
        return outcome;
      });
  }

  #result(project: string, input: PreparedInput, place: Place): AppendResult {
    const { entry } = buildEntry(project, place.seq, place.prev_hash, place.at, input);
    if (entry.hash !== place.hash) {
      // The chain holds other texts than this process parked: never acknowledge a different entry.
      throw new Error(`parked append at ${project} seq ${place.seq} hashes differently`);
    }
    return appended(entry, false);
  }
}

/** Chains `rows` after `from` in this transaction: entries, checkpoints, places and the head. */
async function placeRows(
  ctx: AppendContext,
  tx: Queryable,
  from: Head,
  rows: readonly ParkedRow[],
  ownId: string,
): Promise<{ head: Head | undefined; own: Place | undefined }> {
  if (rows.length === 0) return { head: undefined, own: undefined };
  const values: (string | number | null)[] = [];
  const placed: { id: string; seq: number; prev_hash: string; hash: string }[] = [];
  let own: Place | undefined;
  let seq = from.seq;
  let prev = from.hash;
  for (const row of rows.slice(0, MAX_CHAIN)) {
    seq++;
    const at = row.at!;
    const stored: [...EntryRow] = [
      from.project,
      seq,
      ENTRY_FORMAT,
      at,
      row.kind,
      row.body,
      row.actor,
      row.authority,
      row.correlation_id,
      null,
      row.receipt,
      prev,
      '',
    ];
    const hash = rowHash(stored);
    stored[12] = hash;
    for (const value of stored) values.push(value);
    const id = String(row.id);
    if (id === ownId) own = { seq, at, prev_hash: prev, hash };
    else placed.push({ id, seq, prev_hash: prev, hash });
    if (ctx.checkpointDue(seq))
      await storeCheckpoint(tx, ctx.signCheckpoint(from.project, seq, hash));
    prev = hash;
  }
  for (const { sql, params } of insertStatements(values)) await tx.run(sql, params);
  if (placed.length > 0) await tx.run(PLACE, [JSON.stringify(placed)]);
  if (own) await tx.run(DROP, [ownId]);
  await tx.run('UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1', [
    from.project,
    seq,
    prev,
  ]);
  return { head: { project: from.project, seq, hash: prev }, own };
}

function outcomeOf(row: OutcomeRow): Outcome {
  switch (row.state) {
    case 'placed':
      return { state: 'placed', place: placeOf(row) };
    case 'busy':
    case 'no-head':
    case 'checkpoint':
    case 'again':
    case 'gone':
      return { state: row.state };
    default:
      throw new Error(`unknown parked append state ${row.state}`);
  }
}

function placeOf(row: Pick<OutcomeRow, 'seq' | 'at' | 'prev_hash' | 'hash'>): Place {
  return {
    seq: Number(row.seq),
    at: row.at!,
    prev_hash: row.prev_hash as ContentHash,
    hash: row.hash as ContentHash,
  };
}
