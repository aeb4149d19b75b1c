import { CanonryError, type ContentHash } from '../core/index.js';
import type { Queryable, Store } from '../store/index.js';
import type { Signer } from '../trust/index.js';
import { type Checkpoint, signCheckpoint } from './checkpoint.js';
import { CommitQueue } from './commit-queue.js';
import {
  buildEntry,
  checkInput,
  type EntryRow,
  entryParams,
  genesisHash,
  INSERT_ENTRY,
  parseProject,
  rowToEntry,
} from './entry.js';
import { applyProjections, RECEIPTS } from './projections.js';
import { receiptFor } from './receipt.js';
import type {
  AppendOptions,
  AppendResult,
  EntryInput,
  Head,
  JournalEntry,
  Projection,
  Receipt,
} from './types.js';

/** Options for a {@link Journal}. */
export interface JournalOptions {
  /** Projections updated in the append transaction (receipts are built in). */
  readonly projections?: readonly Projection[];
  /** The issuer that signs checkpoints; without one no checkpoint is written. */
  readonly signer?: () => Signer;
  /** Sign a checkpoint every this many entries (default 1,000). */
  readonly checkpointEvery?: number;
  /** The clock stamped on entries (`at`). */
  readonly now?: () => Date;
  /** Most appends committed in one transaction (default 256). */
  readonly maxBatch?: number;
}

/**
 * The journal: per-project, append-only, hash-chained entries and the projections derived from them.
 * Appending and updating projections happen in one transaction; concurrent appends are group-committed.
 * Every read and write is scoped by project: no method reads another project's rows.
 */
export class Journal {
  readonly store: Store;
  readonly projections: readonly Projection[];
  readonly #queue: CommitQueue;
  readonly #signer: (() => Signer) | undefined;
  readonly #checkpointEvery: number;
  readonly #now: () => Date;

  constructor(store: Store, options: JournalOptions = {}) {
    this.store = store;
    this.projections = [RECEIPTS, ...(options.projections ?? [])];
    this.#queue = new CommitQueue(store, options.maxBatch);
    this.#signer = options.signer;
    this.#checkpointEvery = options.checkpointEvery ?? 1_000;
    this.#now = options.now ?? (() => new Date());
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
   * head before the first; CONFLICT carries the current head.
   */
  appendAll(
    project: string,
    inputs: readonly EntryInput[],
    options: AppendOptions = {},
  ): Promise<AppendResult[]> {
    const name = parseProject(project);
    const checked = inputs.map((input) => checkInput(input));
    if (checked.length === 0) throw new CanonryError('INVALID_ENTRY', 'nothing to append');
    if (
      options.expectedSeq !== undefined &&
      !(Number.isSafeInteger(options.expectedSeq) && options.expectedSeq >= 0)
    ) {
      throw new CanonryError('INVALID_ENTRY', 'expected_seq must be a non-negative integer');
    }
    return this.#queue.push({
      check: (tx) => this.#prepare(tx, name, checked, options.expectedSeq, options.precondition),
    });
  }

  async #prepare(
    tx: Queryable,
    project: string,
    inputs: readonly EntryInput[],
    expectedSeq: number | undefined,
    precondition: ((tx: Queryable) => Promise<void>) | undefined,
  ): Promise<() => Promise<AppendResult[]>> {
    let head = await this.#lockHead(tx, project);
    const duplicates = new Map<number, AppendResult>();
    for (let i = 0; i < inputs.length; i++) {
      const key = inputs[i]!.idempotency_key;
      if (key == null) continue;
      const rows = await tx.all<EntryRow>(
        'SELECT * FROM journal_entries WHERE project = $1 AND idempotency_key = $2',
        [project, key],
      );
      if (rows[0]) {
        const entry = rowToEntry(rows[0]);
        duplicates.set(i, { entry, receipt: receiptFor(entry), duplicate: true });
      }
    }
    if (duplicates.size === inputs.length)
      return async () => inputs.map((_, i) => duplicates.get(i)!);
    if (expectedSeq !== undefined && expectedSeq !== head.seq) {
      throw new CanonryError(
        'CONFLICT',
        `the head of ${project} is seq ${head.seq}, not ${expectedSeq}`,
        { head },
      );
    }
    if (precondition) await precondition(tx);
    return async () => {
      const results: AppendResult[] = [];
      const at = this.#now().toISOString();
      for (let i = 0; i < inputs.length; i++) {
        const duplicate = duplicates.get(i);
        if (duplicate) {
          results.push(duplicate);
          continue;
        }
        const entry = buildEntry(project, head.seq + 1, head.hash, at, inputs[i]!);
        await tx.run(INSERT_ENTRY, entryParams(entry));
        await applyProjections(tx, this.projections, entry);
        head = { project, seq: entry.seq, hash: entry.hash };
        if (this.#signer && entry.seq % this.#checkpointEvery === 0) {
          await storeCheckpoint(tx, signCheckpoint(project, entry.seq, entry.hash, this.#signer()));
        }
        results.push({ entry, receipt: receiptFor(entry), duplicate: false });
      }
      await tx.run('UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1', [
        project,
        head.seq,
        head.hash,
      ]);
      return results;
    };
  }

  /** Reads the head inside a transaction, creating it for a new project, and locks it for the rest. */
  async #lockHead(tx: Queryable, project: string): Promise<Head> {
    const lock = this.store.capabilities.rowLocks ? ' FOR UPDATE' : '';
    const select = `SELECT seq, hash FROM journal_heads WHERE project = $1${lock}`;
    let rows = await tx.all<{ seq: number; hash: string }>(select, [project]);
    if (rows.length === 0) {
      await tx.run(
        'INSERT INTO journal_heads (project, seq, hash) VALUES ($1, 0, $2) ON CONFLICT (project) DO NOTHING',
        [project, genesisHash(project)],
      );
      rows = await tx.all(select, [project]);
    }
    return { project, seq: Number(rows[0]!.seq), hash: rows[0]!.hash as ContentHash };
  }

  /** The project's head; seq 0 and the genesis hash for a project with no entries. */
  async head(project: string): Promise<Head> {
    const name = parseProject(project);
    const rows = await this.store.all<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM journal_heads WHERE project = $1',
      [name],
    );
    if (!rows[0]) return { project: name, seq: 0, hash: genesisHash(name) };
    return { project: name, seq: Number(rows[0].seq), hash: rows[0].hash as ContentHash };
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
    const rows = await this.store.all<EntryRow>(
      'SELECT * FROM journal_entries WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [name, after, limit],
    );
    return rows.map(rowToEntry);
  }

  /** The stored receipt of an entry, or null. */
  async receipt(project: string, seq: number): Promise<Receipt | null> {
    const rows = await this.store.all<{ receipt: string }>(
      'SELECT receipt FROM journal_receipts WHERE project = $1 AND seq = $2',
      [parseProject(project), seq],
    );
    return rows[0] ? (JSON.parse(rows[0].receipt) as Receipt) : null;
  }

  /** Signs a checkpoint at the current head now (or returns the one already there). */
  async checkpoint(project: string): Promise<Checkpoint> {
    const name = parseProject(project);
    if (!this.#signer)
      throw new CanonryError('KEYRING_MISSING', 'the journal has no signer for checkpoints');
    const signer = this.#signer;
    return this.store.transaction(async (tx) => {
      const head = await this.#lockHead(tx, name);
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

  /** Every stored checkpoint of a project, as stored (hostile until verified). */
  async checkpoints(project: string): Promise<unknown[]> {
    const rows = await this.store.all<{ checkpoint: string }>(
      'SELECT checkpoint FROM journal_checkpoints WHERE project = $1 ORDER BY seq',
      [parseProject(project)],
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

async function storeCheckpoint(tx: Queryable, checkpoint: Checkpoint): Promise<void> {
  await tx.run(
    'INSERT INTO journal_checkpoints (project, seq, checkpoint) VALUES ($1, $2, $3) ON CONFLICT (project, seq) DO NOTHING',
    [checkpoint.project, checkpoint.seq, JSON.stringify(checkpoint)],
  );
}
