import { CanonryError } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { Signer } from '../trust/index.js';
import { appendInBackground } from './append-background.js';
import type { AppendContext, PlainAppend } from './append-context.js';
import { ForwardedAppends, type ForwardOptions } from './append-forwarded.js';
import { ParkedAppends } from './append-parked.js';
import { appendSolo } from './append-solo.js';
import { readHead } from './append-statements.js';
import { appendTogether } from './append-together.js';
import { type Batch, beginBatch, checkInTransaction, finishBatch } from './append-transaction.js';
import { type Checkpoint, signCheckpoint } from './checkpoint.js';
import { storeCheckpoint } from './checkpoint-rows.js';
import { CommitQueue } from './commit-queue.js';
import { checkInput, type PreparedInput, parseProject } from './entry-input.js';
import type { EntryKinds } from './entry-kind.js';
import { type EntryRow, rowToEntry, SELECT_ENTRIES } from './entry-row.js';
import { type FollowOptions, JournalFeed, type JournalFollower } from './follow.js';
import { receiptFor } from './receipt.js';
import { inDoubt, isSettleable, settleDoubt, settleLost } from './settle-unknown.js';
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
/** See {@link Journal.stats}. */
export interface JournalStats {
  readonly appended: ReadonlyMap<string, number>;
  readonly queued: number;
  /**
   * Appends this process forwarded to a project's leader, and appended for other processes; and
   * the connections it turned away as a leader, by why (see `ForwardedAppends.refused`).
   */
  readonly forwarded: {
    readonly sent: number;
    readonly received: number;
    readonly refused: {
      readonly handshake: number;
      readonly token: number;
      readonly capacity: number;
    };
  };
}

export interface JournalOptions {
  /** Projections updated in the append transaction. */
  readonly projections?: readonly Projection[];
  /**
   * The entry kinds this journal accepts: an append of any other kind is UNKNOWN_ENTRY_KIND, a body
   * that does not match its kind's schema INVALID_ENTRY, and replay checks every body a projection
   * reads. Without it any well-formed kind is appended unchecked (a journal for tests or benchmarks
   * of the mechanism); the runtime always passes every module's kinds.
   */
  readonly kinds?: EntryKinds;
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
  /**
   * Where failures of background work are reported: the checkpoint timer, a port for forwarded
   * appends that cannot be bound, and the live feed's LISTEN connection failing (once a run).
   */
  readonly onError?: (err: unknown) => void;
  /**
   * Which projects may have their oldest entries pruned (the kernel's audit, past its retention);
   * none by default. A project any projection reads must never be prunable.
   */
  readonly prunable?: (project: string) => boolean;
  /**
   * On a store shared by processes (PostgreSQL): take the plain appends other processes forward
   * to this one while it leads a contended project, and forward this process's own to the leader
   * (`append-forwarded.ts`). Off without it: contended plain appends park in the database.
   */
  readonly forward?: ForwardOptions;
}

/** Why appends to a project are refused: its chain did not verify. */
export interface Quarantine {
  readonly project: string;
  readonly seq: number;
  readonly reason: BreakReason;
  readonly detail: string;
}

/**
 * A page of at most `$3` entries after `$2` whose stored sizes add up to at most `$4` bytes, but at
 * least one: the last seq is found from the sizes alone (`octet_length` reads a stored length, not
 * the text: PostgreSQL does not detoast for it, SQLite does not load the value), so rows past the
 * budget are never read out.
 */
const READ_WITHIN_BYTES = `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 AND seq <= (
  SELECT MAX(seq) FROM (
    SELECT seq, SUM(size) OVER (ORDER BY seq) AS upto, ROW_NUMBER() OVER (ORDER BY seq) AS n
    FROM (
      SELECT seq, octet_length(body) + octet_length(authority) + octet_length(receipt) AS size
      FROM journal_entries WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3
    ) AS next
  ) AS sized WHERE n = 1 OR upto <= $4
) ORDER BY seq LIMIT $3`;

/**
 * The journal: per-project, append-only, hash-chained entries and the projections derived from them.
 * Appending and updating projections happen in one transaction; concurrent appends are group-committed.
 * The head of each project moves by compare-and-set from the last head this process committed, so a
 * plain append reads nothing first; appends that must decide on the current state (an expected seq,
 * an idempotency key, a precondition) lock the head row and decide under the lock. Every read and
 * write is scoped by project: no method reads another project's rows.
 *
 * An append takes one of three paths: alone and plain, one autocommit statement (`append-solo.ts`);
 * a run of plain appends, the store's background writer (`append-background.ts`); anything else,
 * a group-committed transaction (`append-transaction.ts`). This class routes and keeps the heads.
 */
export class Journal {
  readonly store: Store;
  readonly projections: readonly Projection[];
  /** The kinds this journal accepts, when it checks them (see {@link JournalOptions.kinds}). */
  readonly kinds: EntryKinds | undefined;
  readonly #queue: CommitQueue<Batch, PlainAppend>;
  readonly #parked: ParkedAppends | undefined;
  readonly #forwarded: ForwardedAppends | undefined;
  readonly #ctx: AppendContext;
  readonly #signer: (() => Signer) | undefined;
  readonly #checkpointEvery: number;
  readonly #byKind = new Map<string, readonly Projection[]>();
  readonly #tails: UnsignedTails;
  readonly #feed: JournalFeed;
  /** Entries this process appended, by kind (duplicates excluded). */
  readonly #appended = new Map<string, number>();
  readonly #prunable: (project: string) => boolean;
  /** Projects whose chain did not verify: appends to them are refused until an operator acts. */
  readonly #broken = new Map<string, Quarantine>();
  /** Appends started and not yet settled: `close` waits for them before the tails are signed. */
  readonly #inFlight = new Set<Promise<unknown>>();
  #closing: Promise<void> | undefined;

  constructor(store: Store, options: JournalOptions = {}) {
    this.store = store;
    this.projections = options.projections ?? [];
    this.kinds = options.kinds;
    this.#signer = options.signer;
    this.#checkpointEvery = options.checkpointEvery ?? 1_000;
    this.#prunable = options.prunable ?? (() => false);
    if (this.kinds) {
      for (const projection of this.projections) {
        if (projection.kinds === '*') continue;
        const missing = projection.kinds.find((kind) => this.kinds?.get(kind) === undefined);
        if (missing !== undefined)
          throw new TypeError(`projection ${projection.name} reads ${missing}, not registered`);
      }
    }
    const now = options.now ?? (() => new Date());
    const heads = new Map<string, Head>();
    const every = this.#checkpointEvery;
    const signer = this.#signer;
    this.#feed = new JournalFeed(this, store.notifications, options.onError);
    this.#ctx = {
      store,
      heads,
      assumed: new Map(),
      kinds: this.kinds,
      now,
      consumers: (kind) => this.#consumers(kind),
      checkpointDue: (seq) => signer !== undefined && seq % every === 0,
      signCheckpoint: (project, seq, hash) => signCheckpoint(project, seq, hash, signer!()),
      contention: (project) => this.#parked?.contention(project),
      committed: (head, announce) => {
        if ((heads.get(head.project)?.seq ?? -1) <= head.seq) heads.set(head.project, head);
        this.#feed.moved(head.project, head.seq, announce);
        if (signer !== undefined) this.#tails.moved(head.project, head.seq, every);
      },
    };
    const ctx = this.#ctx;
    // Many processes on one database: a contended head's plain appends are chained in batches.
    this.#parked =
      store.capabilities.rowLocks && store.capabilities.shared
        ? new ParkedAppends(ctx, signer === undefined ? 0 : every)
        : undefined;
    this.#forwarded =
      this.#parked && options.forward
        ? new ForwardedAppends(
            {
              store,
              kinds: this.kinds,
              appendStamped: (project, inputs, fids) => this.#appendStamped(project, inputs, fids),
              committed: (head) => ctx.committed(head, false),
              onError: options.onError ?? (() => undefined),
            },
            options.forward,
          )
        : undefined;
    this.#queue = new CommitQueue<Batch, PlainAppend>(
      store,
      {
        begin: () => beginBatch(ctx),
        beforeCommit: finishBatch,
        committed: (batch) => {
          for (const head of batch.heads.values()) ctx.committed(head);
        },
        // Every head the batch held stored as it left them: the transaction committed. None, and
        // its session ended: it never will.
        settle: async (batch, err) => {
          const settled = await settleLost(store, batch.heads.values(), err);
          if (settled === undefined) inDoubt(err, store, batch.heads.values());
          return settled === undefined ? undefined : settled === 'stored';
        },
        ...(store.background
          ? { background: (plains: readonly PlainAppend[]) => appendInBackground(ctx, plains) }
          : store.capabilities.dataModifyingCte
            ? {
                background: (plains: readonly PlainAppend[]) => appendTogether(ctx, plains),
                pipelined: false,
              }
            : {}),
      },
      options.maxBatch,
    );
    this.#tails = new UnsignedTails(
      options.checkpointIntervalMs,
      async (project) => {
        if (!this.#broken.has(project)) await this.checkpoint(project);
      },
      options.onError ?? (() => undefined),
    );
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
   * Shutdown: refuses every later append (SHUTTING_DOWN), ends every live feed, waits for the
   * appends in flight, stops the checkpoint timer and signs every unsigned head this process left.
   * Once it resolves nothing of the journal's touches the store, which can then be closed.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#feed.close();
    // Parked writers stop waiting for places and ask the database: they finish or fail on their own.
    this.#parked?.close();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    await Promise.all([this.#forwarded?.close(), this.#tails.stop()]);
  }

  /** Refuses an append once `close` began: the store is about to close under it. */
  #refuseWhileClosing(): void {
    if (this.#closing !== undefined) {
      throw new CanonryError('SHUTTING_DOWN', 'the journal is closing: nothing more is appended');
    }
  }

  /** Runs an append so that `close` waits for it. */
  #tracked<T>(append: Promise<T>): Promise<T> {
    this.#inFlight.add(append);
    const done = () => this.#inFlight.delete(append);
    append.then(done, done);
    return append;
  }

  /**
   * What this process's journal has done so far: entries appended by kind, and appends queued for
   * the next group commit (for `/metrics`).
   */
  stats(): JournalStats {
    return {
      appended: this.#appended,
      queued: this.#queue.depth,
      forwarded: {
        sent: this.#forwarded?.forwarded ?? 0,
        received: this.#forwarded?.received ?? 0,
        refused: { ...(this.#forwarded?.refused ?? { handshake: 0, token: 0, capacity: 0 }) },
      },
    };
  }

  /** A live feed of the project's committed entries after `after` (see follow.ts). */
  follow(project: string, options?: FollowOptions): JournalFollower {
    return this.#feed.follow(project, options);
  }

  /**
   * Appends one entry. A seen idempotency key returns the first result and appends nothing. Build
   * the input with its kind (`KIND.input(body, meta)`) so the body is typed by it.
   */
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
    this.#refuseWhileClosing();
    return this.#tracked(this.#appendAll(project, inputs, options));
  }

  async #appendAll(
    project: string,
    inputs: readonly EntryInput[],
    options: AppendOptions,
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
    const prepared = inputs.map((input) => checkInput(input, this.kinds));
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
    const ctx = this.#ctx;
    if (plain && this.#parked?.contended(name)) {
      const forwarded = await this.#forwarded?.append(name, prepared);
      if (forwarded !== undefined && forwarded !== 'lead') {
        this.#count(forwarded.results);
        return forwarded.results;
      }
      // The leader appends as any process does; the others park a lone entry when there is no
      // leader to reach.
      const parked =
        forwarded === 'lead' || prepared.length !== 1
          ? undefined
          : await this.#parked.append(name, prepared[0]!);
      if (parked) {
        this.#count(parked);
        return parked;
      }
    }
    const results = await this.#queue.push({
      retrySafe: prepared.every((p) => p.idempotency_key !== null),
      ...(decides || prepared.length !== 1
        ? {}
        : { solo: () => appendSolo(ctx, name, prepared[0]!) }),
      ...(plain ? { plain: { project: name, inputs: prepared } } : {}),
      check: (tx, batch) => checkInTransaction(ctx, tx, batch, name, prepared, options, decides),
    });
    this.#count(results);
    return results;
  }

  /**
   * Plain entries appended together, each stamped with the id its writer chose (forwarded to this
   * process, or settled by their writer after the leader did not answer): an id is unique per
   * project, so each lands once.
   */
  async #appendStamped(
    project: string,
    inputs: readonly PreparedInput[],
    fids: readonly string[],
  ): Promise<AppendResult[]> {
    this.#refuseWhileClosing();
    return this.#tracked(this.#appendStampedNow(project, inputs, fids));
  }

  async #appendStampedNow(
    project: string,
    inputs: readonly PreparedInput[],
    fids: readonly string[],
  ): Promise<AppendResult[]> {
    const broken = this.#broken.get(project);
    if (broken !== undefined) {
      throw new CanonryError('CHAIN_BROKEN', `the chain of ${project} does not verify`, {
        ...broken,
      });
    }
    const ctx = this.#ctx;
    const results = await this.#queue.push({
      retrySafe: true,
      // Alone or in a group, one statement (`append-together.ts`); a peer may send a kind a
      // projection here reads: that goes through a transaction.
      ...(inputs.every((input) => this.#consumers(input.kind).length === 0)
        ? { plain: { project, inputs, stamps: fids } }
        : {}),
      check: (tx, batch) => checkInTransaction(ctx, tx, batch, project, inputs, {}, false, fids),
    });
    this.#count(results);
    return results;
  }

  #count(results: readonly AppendResult[]): void {
    for (const { entry, duplicate } of results) {
      if (!duplicate) this.#appended.set(entry.kind, (this.#appended.get(entry.kind) ?? 0) + 1);
    }
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

  /**
   * Whether appends that failed with `err` — their outcome unknown — can be told later by
   * {@link settle}: as stored or as never to be stored. False for any other failure, and when the
   * session that wrote them can be neither known gone nor ended (PostgreSQL behind a pooler).
   */
  isSettleable(err: unknown): boolean {
    return isSettleable(err, this.store);
  }

  /**
   * What appends that failed with `err` (their outcome unknown) did, read back now: `stored` (they
   * are in the journal, as their failed call would have returned them) or `absent` (never committed,
   * and never will: appending them again writes them once); undefined when it cannot be told yet
   * (the store out of reach) or `err` is not such a failure of this journal.
   */
  settle(err: unknown): Promise<'stored' | 'absent' | undefined> {
    return settleDoubt(err, this.store);
  }

  /** The project's head; seq 0 and the genesis hash for a project with no entries. */
  async head(project: string): Promise<Head> {
    return readHead(this.store, parseProject(project), false);
  }

  /**
   * Entries after `after`, in seq order, at most `limit` (1–1,000) and, with `bytes`, no more than
   * fit in that many bytes of stored body, authority and receipt — but always the first entry.
   */
  async read(
    project: string,
    { after = 0, limit = 100, bytes }: { after?: number; limit?: number; bytes?: number } = {},
  ): Promise<JournalEntry[]> {
    const name = parseProject(project);
    if (!Number.isSafeInteger(after) || after < 0)
      throw new CanonryError('INVALID_ARGUMENT', 'after must be an integer ≥ 0');
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1_000) {
      throw new CanonryError('INVALID_ARGUMENT', 'limit must be an integer 1–1000');
    }
    if (bytes !== undefined && (!Number.isSafeInteger(bytes) || bytes < 1)) {
      throw new CanonryError('INVALID_ARGUMENT', 'bytes must be an integer ≥ 1');
    }
    const rows =
      bytes === undefined
        ? await this.store.values<EntryRow>(
            `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
            [name, after, limit],
          )
        : await this.store.values<EntryRow>(READ_WITHIN_BYTES, [name, after, limit, bytes]);
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
      const head = await readHead(tx, name, this.store.capabilities.rowLocks);
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
