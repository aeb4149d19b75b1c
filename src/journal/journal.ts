import { CanonryError, type ContentHash } from '../core/index.js';
import type { BatchStatement, Queryable, Store } from '../store/index.js';
import type { Signer } from '../trust/index.js';
import { type Checkpoint, signCheckpoint } from './checkpoint.js';
import { CommitQueue } from './commit-queue.js';
import {
  type BuiltEntry,
  buildEntry,
  checkInput,
  ENTRY_COLUMN_NAMES,
  ENTRY_COLUMNS,
  type EntryRow,
  genesisHash,
  insertEntries,
  type PreparedInput,
  parseProject,
  rowToEntry,
  SELECT_ENTRIES,
} from './entry.js';
import { type FollowOptions, JournalFeed, type JournalFollower } from './follow.js';
import { applyProjections } from './projections.js';
import { receiptFor } from './receipt.js';
import type {
  AppendOptions,
  AppendResult,
  BreakReason,
  EntryInput,
  Head,
  JournalEntry,
  Projection,
  Receipt,
} from './types.js';
import { UnsignedTails } from './unsigned-tails.js';

/** Options for a {@link Journal}. */
export interface JournalOptions {
  /** Projections updated in the append transaction. */
  readonly projections?: readonly Projection[];
  /** The issuer that signs checkpoints; without one no checkpoint is written. */
  readonly signer?: () => Signer;
  /** Sign a checkpoint every this many entries (default 1,000). */
  readonly checkpointEvery?: number;
  /** The clock stamped on entries (`at`). */
  readonly now?: () => Date;
  /** Most appends committed in one transaction (default 256). */
  readonly maxBatch?: number;
  /**
   * Sign a checkpoint at a project's head this long after its first append past the last checkpoint
   * (with a signer); undefined signs only every `checkpointEvery` entries and on demand.
   */
  readonly checkpointIntervalMs?: number;
  /** Where failures of background work (the checkpoint timer) are reported. */
  readonly onError?: (err: unknown) => void;
  /**
   * Which projects may have their oldest entries pruned (the kernel's audit, past its retention);
   * none by default. A project any projection reads must never be prunable.
   */
  readonly prunable?: (project: string) => boolean;
}

/** Why appends to a project are refused: its chain did not verify. */
export interface Quarantine {
  readonly project: string;
  readonly seq: number;
  readonly reason: BreakReason;
  readonly detail: string;
}

/** What the jobs of one transaction did to heads, not yet committed. */
interface Batch {
  /** One timestamp for every entry the transaction commits. */
  readonly at: string;
  /** Each project's head as of now in this transaction (its row is locked). */
  readonly heads: Map<string, Head>;
  /** The seq each project's head row holds so far in this transaction, once this batch wrote it. */
  readonly stored: Map<string, number>;
  /** Entry rows not yet inserted, flattened: they go in with a few multi-row statements before COMMIT. */
  readonly rows: (string | number | null)[];
  /** Idempotency keys appended in this transaction (`project \0 key`), not yet in the table. */
  readonly keys: Map<string, JournalEntry>;
}

/** Entries that need no read and no decision: they may be committed by the background writer. */
interface PlainAppend {
  readonly project: string;
  readonly inputs: readonly PreparedInput[];
}

/** Moves a head by compare-and-set and inserts the entry, atomically, in one statement. */
const SOLO_APPEND = `WITH moved AS (
    UPDATE journal_heads SET seq = $2, hash = $13 WHERE project = $1 AND seq = $14 AND hash = $12 RETURNING project
  )
  INSERT INTO journal_entries (${ENTRY_COLUMN_NAMES})
  SELECT $1, $2::bigint, $3::integer, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 FROM moved`;

/** Rows per multi-row INSERT (13 parameters each, well under every engine's limit). */
const ROWS_PER_INSERT = 100;

/**
 * Moves a head by compare-and-set on its seq and hash: changes no row when another writer moved it
 * first. The hash matters for pipelined batches: one built on an earlier batch of this process that
 * was refused assumes a head that never existed, and another writer may have left the head at that
 * very seq with other entries.
 */
const MOVE_HEAD =
  'UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1 AND seq = $4 AND hash = $5';

/** Entry rows (flattened columns) as multi-row INSERTs of at most ROWS_PER_INSERT rows each. */
function insertStatements(rows: readonly (string | number | null)[]): BatchStatement[] {
  const width = ROWS_PER_INSERT * ENTRY_COLUMNS;
  const statements: BatchStatement[] = [];
  for (let i = 0; i < rows.length; i += width) {
    const chunk = rows.length <= width ? rows : rows.slice(i, i + width);
    statements.push({ sql: insertEntries(chunk.length / ENTRY_COLUMNS), params: chunk });
  }
  return statements;
}

/** See {@link Journal.stats}. */
export interface JournalStats {
  readonly appended: ReadonlyMap<string, number>;
  readonly queued: number;
}

/**
 * The journal: per-project, append-only, hash-chained entries and the projections derived from them.
 * Appending and updating projections happen in one transaction; concurrent appends are group-committed.
 * The head of each project moves by compare-and-set from the last head this process committed, so a
 * plain append reads nothing first; appends that must decide on the current state (an expected seq,
 * an idempotency key, a precondition) lock the head row and decide under the lock. Every read and
 * write is scoped by project: no method reads another project's rows.
 */
export class Journal {
  readonly store: Store;
  readonly projections: readonly Projection[];
  readonly #queue: CommitQueue<Batch, PlainAppend>;
  /** The last committed head per project, as far as this process knows (it may be stale). */
  readonly #heads = new Map<string, Head>();
  /** The head each project will have once its background batches in flight commit. */
  readonly #assumed = new Map<string, Head>();
  readonly #signer: (() => Signer) | undefined;
  readonly #checkpointEvery: number;
  readonly #now: () => Date;
  readonly #byKind = new Map<string, readonly Projection[]>();
  readonly #tails: UnsignedTails;
  readonly #feed: JournalFeed;
  readonly #prunable: (project: string) => boolean;
  /** Projects whose chain did not verify: appends to them are refused until an operator acts. */
  readonly #broken = new Map<string, Quarantine>();
  /** Entries this process appended, by kind (duplicates excluded). */
  readonly #appended = new Map<string, number>();

  constructor(store: Store, options: JournalOptions = {}) {
    this.store = store;
    this.projections = options.projections ?? [];
    this.#queue = new CommitQueue<Batch, PlainAppend>(
      store,
      {
        begin: () => ({
          at: this.#now().toISOString(),
          heads: new Map(),
          stored: new Map(),
          rows: [],
          keys: new Map(),
        }),
        // Later appends of a batch build on the head the first one locked; the row is written once.
        beforeCommit: async (tx, batch) => {
          for (const { sql, params } of insertStatements(batch.rows)) await tx.run(sql, params);
          for (const [project, stored] of batch.stored) {
            const head = batch.heads.get(project)!;
            if (head.seq === stored) continue;
            await tx.run('UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1', [
              project,
              head.seq,
              head.hash,
            ]);
          }
        },
        committed: (batch) => {
          for (const [project, head] of batch.heads) {
            this.#heads.set(project, head);
            this.#moved(project, head.seq);
          }
        },
        ...(store.background
          ? { background: (plains: readonly PlainAppend[]) => this.#background(plains) }
          : {}),
      },
      options.maxBatch,
    );
    this.#feed = new JournalFeed(this, store.notifications);
    this.#signer = options.signer;
    this.#checkpointEvery = options.checkpointEvery ?? 1_000;
    this.#now = options.now ?? (() => new Date());
    this.#prunable = options.prunable ?? (() => false);
    this.#tails = new UnsignedTails(
      options.checkpointIntervalMs,
      async (project) => {
        if (!this.#broken.has(project)) await this.checkpoint(project);
      },
      options.onError ?? (() => undefined),
    );
  }

  /** A head this process committed moved: its tail may now be unsigned. */
  #moved(project: string, seq: number): void {
    this.#feed.moved(project, seq);
    if (this.#signer !== undefined) this.#tails.moved(project, seq, this.#checkpointEvery);
  }

  /**
   * Refuses every later append to `project` (CHAIN_BROKEN with the break): its chain did not verify,
   * and appending would sign a checkpoint over entries nobody can vouch for.
   */
  quarantine(broken: Quarantine): void {
    this.#broken.set(broken.project, broken);
  }

  /** Whether the oldest entries of `project` may be pruned (see {@link JournalOptions.prunable}). */
  prunable(project: string): boolean {
    return this.#prunable(project);
  }

  /** The quarantine of `project`, if its chain did not verify. */
  brokenChain(project: string): Quarantine | undefined {
    return this.#broken.get(project);
  }

  /** The projects refused since their chain did not verify, by project name. */
  quarantined(): readonly Quarantine[] {
    return [...this.#broken.values()];
  }

  /** The projects whose heads this process moved past their last checkpoint. */
  unsignedProjects(): readonly string[] {
    return this.#tails.pending();
  }

  /**
   * What this process's journal has done so far: entries appended by kind, and appends queued for
   * the next group commit (for `/metrics`).
   */
  stats(): JournalStats {
    return { appended: this.#appended, queued: this.#queue.depth };
  }

  /** Ends every live feed, stops the checkpoint timer and signs every unsigned head this process left (shutdown). */
  close(): Promise<void> {
    this.#feed.close();
    return this.#tails.stop();
  }

  /** A live feed of the project's committed entries after `after` (see follow.ts). */
  follow(project: string, options?: FollowOptions): JournalFollower {
    return this.#feed.follow(project, options);
  }

  /** Appends one entry. A seen idempotency key returns the first result and appends nothing. */
  async append(
    project: string,
    input: EntryInput,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const [result] = await this.appendAll(project, [input], options);
    return result!;
  }

  /**
   * Appends several entries atomically, in order (all or none). `expectedSeq` is checked against the
   * head before the first; CONFLICT carries the current head. Every failure, a malformed input
   * included, is a rejected promise, never a synchronous throw: callers on timers (the kernel's audit)
   * would otherwise take the process down.
   */
  async appendAll(
    project: string,
    inputs: readonly EntryInput[],
    options: AppendOptions = {},
  ): Promise<AppendResult[]> {
    const name = parseProject(project);
    const broken = this.#broken.get(name);
    if (broken !== undefined) {
      throw new CanonryError(
        'CHAIN_BROKEN',
        `the chain of ${name} does not verify (seq ${broken.seq}: ${broken.reason}); appends are refused`,
        { ...broken },
      );
    }
    const prepared = inputs.map((input) => checkInput(input));
    if (prepared.length === 0) throw new CanonryError('INVALID_ENTRY', 'nothing to append');
    const { expectedSeq, precondition, effects } = options;
    if (expectedSeq !== undefined && !(Number.isSafeInteger(expectedSeq) && expectedSeq >= 0)) {
      throw new CanonryError('INVALID_ENTRY', 'expected_seq must be a non-negative integer');
    }
    const decides =
      expectedSeq !== undefined ||
      precondition !== undefined ||
      effects !== undefined ||
      prepared.some((p) => p.idempotency_key !== null);
    const plain = !decides && prepared.every((p) => this.#consumers(p.kind).length === 0);
    const results = await this.#queue.push({
      retrySafe: prepared.every((p) => p.idempotency_key !== null),
      ...(decides || prepared.length !== 1 ? {} : { solo: () => this.#solo(name, prepared[0]!) }),
      ...(plain ? { plain: { project: name, inputs: prepared } } : {}),
      check: async (tx, batch) => {
        if (!decides) return () => this.#write(tx, batch, name, prepared, new Map(), false);
        const head = batch.heads.get(name) ?? (await this.#readHead(tx, name, true));
        batch.heads.set(name, head);
        const duplicates = await this.#duplicates(tx, batch, name, prepared);
        if (duplicates.size === prepared.length)
          return async () => prepared.map((_, i) => duplicates.get(i)!);
        if (expectedSeq !== undefined && expectedSeq !== head.seq) {
          throw new CanonryError(
            'CONFLICT',
            `the head of ${name} is seq ${head.seq}, not ${expectedSeq}`,
            { head },
          );
        }
        if (precondition) await precondition(tx);
        return async () => {
          const results = await this.#write(tx, batch, name, prepared, duplicates, true);
          if (effects && duplicates.size < prepared.length) await effects(tx, results);
          return results;
        };
      },
    });
    for (const { entry, duplicate } of results) {
      if (!duplicate) this.#appended.set(entry.kind, (this.#appended.get(entry.kind) ?? 0) + 1);
    }
    return results;
  }

  /**
   * One plain entry on an engine with data-modifying CTEs: head move and insert in one autocommit
   * statement — one round trip instead of four. Only from a known head, for kinds no projection
   * reads, off checkpoint boundaries; otherwise (or if the head moved) undefined, and a transaction.
   */
  async #solo(project: string, input: PreparedInput): Promise<AppendResult[] | undefined> {
    const from = this.#heads.get(project);
    const due =
      this.#signer !== undefined &&
      (from?.seq ?? 0) % this.#checkpointEvery === this.#checkpointEvery - 1;
    if (
      !this.store.capabilities.dataModifyingCte ||
      !from ||
      due ||
      this.#consumers(input.kind).length > 0
    ) {
      return undefined;
    }
    const { entry, params } = buildEntry(
      project,
      from.seq + 1,
      from.hash,
      this.#now().toISOString(),
      input,
    );
    const inserted = await this.store.run(SOLO_APPEND, [...params, from.seq]);
    if (inserted !== 1) return undefined;
    this.#heads.set(project, { project, seq: entry.seq, hash: entry.hash });
    this.#moved(project, entry.seq);
    return [appended(entry, false)];
  }

  /**
   * Plain appends committed by the store's background writer: built here from the head this process
   * expects (the last committed one, or the tail of a batch still in flight), each project's head moved
   * by compare-and-set in the batch's transaction. If another writer moved a head, the batch is
   * refused whole, and so is any later one built on it; their appends then run in transactions,
   * which read the head under the lock. Undefined when a head is not known yet.
   */
  #background(plains: readonly PlainAppend[]): Promise<AppendResult[][] | undefined> | undefined {
    const writer = this.store.background;
    if (!writer) return undefined;
    const at = this.#now().toISOString();
    const froms = new Map<string, Head>();
    const tails = new Map<string, Head>();
    const rows = new Map<string, (string | number | null)[]>();
    const checkpoints: BatchStatement[] = [];
    const results: AppendResult[][] = [];
    for (const { project, inputs } of plains) {
      const from = tails.get(project) ?? this.#assumed.get(project) ?? this.#heads.get(project);
      if (!from) return undefined;
      if (!froms.has(project)) froms.set(project, from);
      const built = this.#build(project, from, at, inputs, new Map());
      const values = rows.get(project) ?? [];
      rows.set(project, values);
      const appendedHere: AppendResult[] = [];
      for (const { entry, params } of built) {
        for (const value of params) values.push(value);
        if (this.#signer && entry.seq % this.#checkpointEvery === 0) {
          const checkpoint = signCheckpoint(project, entry.seq, entry.hash, this.#signer());
          checkpoints.push({ sql: INSERT_CHECKPOINT, params: checkpointParams(checkpoint) });
        }
        appendedHere.push(appended(entry, false));
      }
      const last = built.at(-1)!.entry;
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
      statements.push(...insertStatements(rows.get(project)!));
    }
    statements.push(...checkpoints);
    for (const [project, tail] of tails) this.#assumed.set(project, tail);
    return writer.commit(statements).then(
      (committed) => {
        if (!committed) {
          this.#forget(tails.keys());
          return undefined;
        }
        for (const [project, tail] of tails) {
          if ((this.#heads.get(project)?.seq ?? 0) < tail.seq) this.#heads.set(project, tail);
          this.#moved(project, tail.seq);
          // No later batch of this project is in flight: what was assumed is now known.
          if (this.#assumed.get(project)?.seq === tail.seq) this.#assumed.delete(project);
        }
        return results;
      },
      (err: unknown) => {
        this.#forget(tails.keys());
        throw err;
      },
    );
  }

  /** After a refused or failed batch, this process no longer knows these heads: read them next. */
  #forget(projects: Iterable<string>): void {
    for (const project of projects) {
      this.#assumed.delete(project);
      this.#heads.delete(project);
    }
  }

  async #duplicates(
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
      if (rows[0]) {
        const entry = rowToEntry(rows[0]);
        found.set(i, appended(entry, true));
      }
    }
    return found;
  }

  async #write(
    tx: Queryable,
    batch: Batch,
    project: string,
    inputs: readonly PreparedInput[],
    duplicates: ReadonlyMap<number, AppendResult>,
    locked: boolean,
  ): Promise<AppendResult[]> {
    const { at } = batch;
    let from =
      batch.heads.get(project) ??
      this.#heads.get(project) ??
      (await this.#readHead(tx, project, true));
    let built = this.#build(project, from, at, inputs, duplicates);
    // Once this batch has written the head row it holds its lock: later appends just build on it.
    if (!batch.stored.has(project) && !(await this.#advance(tx, from, built))) {
      // Another writer moved the head since this process last saw it. A decision taken under a lock
      // that turned out stale must be taken again: refuse, and the queue retries the job alone.
      if (locked) throw new CanonryError('CONFLICT', `the head of ${project} moved; retrying`);
      from = await this.#readHead(tx, project, true);
      built = this.#build(project, from, at, inputs, duplicates);
      if (!(await this.#advance(tx, from, built)))
        throw new CanonryError('CONFLICT', `the head of ${project} moved`);
    }
    const tail = built.at(-1);
    if (tail && !batch.stored.has(project)) batch.stored.set(project, tail.entry.seq);
    const results: AppendResult[] = [];
    let i = 0;
    for (let n = 0; n < inputs.length; n++) {
      const duplicate = duplicates.get(n);
      if (duplicate) {
        results.push(duplicate);
        continue;
      }
      const { entry, params } = built[i++]!;
      for (const value of params) batch.rows.push(value);
      if (entry.idempotency_key !== null)
        batch.keys.set(`${project}\u0000${entry.idempotency_key}`, entry);
      if (this.#consumers(entry.kind).length > 0)
        await applyProjections(tx, this.#consumers(entry.kind), entry);
      if (this.#signer && entry.seq % this.#checkpointEvery === 0) {
        await storeCheckpoint(tx, signCheckpoint(project, entry.seq, entry.hash, this.#signer()));
      }
      results.push(appended(entry, false));
    }
    const last = built.at(-1);
    if (last) batch.heads.set(project, { project, seq: last.entry.seq, hash: last.entry.hash });
    return results;
  }

  #build(
    project: string,
    from: Head,
    at: string,
    inputs: readonly PreparedInput[],
    duplicates: ReadonlyMap<number, AppendResult>,
  ): BuiltEntry[] {
    const built: BuiltEntry[] = [];
    let seq = from.seq;
    let prev = from.hash;
    inputs.forEach((input, n) => {
      if (duplicates.has(n)) return;
      const next = buildEntry(project, ++seq, prev, at, input);
      prev = next.entry.hash;
      built.push(next);
    });
    return built;
  }

  /** Moves the head from `from` to the last built entry if it is still at `from` (compare-and-set). */
  async #advance(tx: Queryable, from: Head, built: readonly BuiltEntry[]): Promise<boolean> {
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

  /** The head as stored (seq 0 and the genesis hash when none), locked for the transaction if asked. */
  async #readHead(db: Pick<Queryable, 'all'>, project: string, lock: boolean): Promise<Head> {
    const suffix = lock && this.store.capabilities.rowLocks ? ' FOR UPDATE' : '';
    const rows = await db.all<{ seq: number; hash: string }>(
      `SELECT seq, hash FROM journal_heads WHERE project = $1${suffix}`,
      [project],
    );
    if (!rows[0]) return { project, seq: 0, hash: genesisHash(project) };
    return { project, seq: Number(rows[0].seq), hash: rows[0].hash as ContentHash };
  }

  /** The projections that consume a kind, in declaration order (cached per kind). */
  #consumers(kind: string): readonly Projection[] {
    let found = this.#byKind.get(kind);
    if (!found) {
      found = this.projections.filter((p) => p.kinds === '*' || p.kinds.includes(kind));
      this.#byKind.set(kind, found);
    }
    return found;
  }

  /** The project's head; seq 0 and the genesis hash for a project with no entries. */
  async head(project: string): Promise<Head> {
    return this.#readHead(this.store, parseProject(project), false);
  }

  /** Entries after `after`, in seq order, at most `limit` (1–1,000). */
  async read(
    project: string,
    { after = 0, limit = 100 }: { after?: number; limit?: number } = {},
  ): Promise<JournalEntry[]> {
    const name = parseProject(project);
    if (!Number.isSafeInteger(after) || after < 0)
      throw new CanonryError('INVALID_ARGUMENT', 'after must be an integer ≥ 0');
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1_000) {
      throw new CanonryError('INVALID_ARGUMENT', 'limit must be an integer 1–1000');
    }
    const rows = await this.store.values<EntryRow>(
      `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [name, after, limit],
    );
    return rows.map(rowToEntry);
  }

  /** The entry appended under an idempotency key, or null (one lookup on the unique key index). */
  async entryByKey(project: string, idempotencyKey: string): Promise<JournalEntry | null> {
    const rows = await this.store.values<EntryRow>(
      `${SELECT_ENTRIES} WHERE project = $1 AND idempotency_key = $2`,
      [parseProject(project), idempotencyKey],
    );
    return rows[0] ? rowToEntry(rows[0]) : null;
  }

  /**
   * The LCSM §7 receipt of an entry, or null. Receipts are a function of the entry alone, so they are
   * derived when asked for rather than stored twice.
   */
  async receipt(project: string, seq: number): Promise<Receipt | null> {
    if (!Number.isSafeInteger(seq) || seq < 1) return null;
    const rows = await this.store.values<EntryRow>(
      `${SELECT_ENTRIES} WHERE project = $1 AND seq = $2`,
      [parseProject(project), seq],
    );
    return rows[0] ? receiptFor(rowToEntry(rows[0])) : null;
  }

  /** Signs a checkpoint at the current head now (or returns the one already there). */
  async checkpoint(project: string): Promise<Checkpoint> {
    const name = parseProject(project);
    const signer = this.#signer;
    if (!signer)
      throw new CanonryError('KEYRING_MISSING', 'the journal has no signer for checkpoints');
    const broken = this.#broken.get(name);
    if (broken !== undefined) {
      throw new CanonryError('CHAIN_BROKEN', `the chain of ${name} does not verify; not signed`, {
        ...broken,
      });
    }
    return this.store.transaction(async (tx) => {
      const head = await this.#readHead(tx, name, true);
      if (head.seq === 0)
        throw new CanonryError('UNKNOWN_PROJECT', `project ${name} has no entries`);
      const existing = await tx.all<{ checkpoint: string }>(
        'SELECT checkpoint FROM journal_checkpoints WHERE project = $1 AND seq = $2',
        [name, head.seq],
      );
      if (existing[0]) return JSON.parse(existing[0].checkpoint) as Checkpoint;
      const checkpoint = signCheckpoint(name, head.seq, head.hash, signer());
      await storeCheckpoint(tx, checkpoint);
      return checkpoint;
    });
  }

  /** Every stored checkpoint of a project up to `upTo`, as stored (hostile until verified). */
  async checkpoints(project: string, upTo = Number.MAX_SAFE_INTEGER): Promise<unknown[]> {
    const rows = await this.store.all<{ checkpoint: string }>(
      'SELECT checkpoint FROM journal_checkpoints WHERE project = $1 AND seq <= $2 ORDER BY seq',
      [parseProject(project), upTo],
    );
    return rows.map((r) => {
      try {
        return JSON.parse(r.checkpoint) as unknown;
      } catch {
        return null;
      }
    });
  }

  /** Projects that have a journal, in name order. */
  async projects(): Promise<{ project: string; seq: number }[]> {
    const rows = await this.store.all<{ project: string; seq: number }>(
      'SELECT project, seq FROM journal_heads ORDER BY project',
    );
    return rows.map((r) => ({ project: r.project, seq: Number(r.seq) }));
  }
}

/**
 * An append's result. Its receipt is computed the first time it is read: most callers (the audit
 * sink, batch loaders) never look, and hashing a receipt per entry would be wasted. A class, not an
 * object literal with a getter: V8 gives each such literal a map of its own and a closure, ~0.5 us
 * per append.
 */
class Appended implements AppendResult {
  #receipt: Receipt | undefined;
  constructor(
    readonly entry: JournalEntry,
    readonly duplicate: boolean,
  ) {}
  get receipt(): Receipt {
    this.#receipt ??= receiptFor(this.entry);
    return this.#receipt;
  }
  /** Serialised like a plain result, receipt included. */
  toJSON(): { entry: JournalEntry; receipt: Receipt; duplicate: boolean } {
    return { entry: this.entry, receipt: this.receipt, duplicate: this.duplicate };
  }
}

function appended(entry: JournalEntry, duplicate: boolean): AppendResult {
  return new Appended(entry, duplicate);
}

const INSERT_CHECKPOINT =
  'INSERT INTO journal_checkpoints (project, seq, checkpoint) VALUES ($1, $2, $3) ON CONFLICT (project, seq) DO NOTHING';

function checkpointParams(checkpoint: Checkpoint): [string, number, string] {
  return [checkpoint.project, checkpoint.seq, JSON.stringify(checkpoint)];
}

async function storeCheckpoint(tx: Queryable, checkpoint: Checkpoint): Promise<void> {
  await tx.run(INSERT_CHECKPOINT, checkpointParams(checkpoint));
}
