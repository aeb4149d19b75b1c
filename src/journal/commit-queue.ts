import { CanonryError, isCanonryError } from '../core/index.js';
import {
  isUnknownOutcome,
  isWaitedOut,
  markWaitedOut,
  type Queryable,
  type Store,
} from '../store/index.js';

/** A unit of work for one transaction; `check` may refuse before anything is written. */
export interface CommitJob<T, B, P = unknown> {
  /** Reads and validates; a CanonryError thrown here fails this job only (nothing was written). */
  check(tx: Queryable, batch: B): Promise<() => Promise<T>>;
  /** Running it again after an unknown commit outcome cannot write it twice (idempotency keys). */
  readonly retrySafe?: boolean;
  /**
   * When the job is alone, a way to commit it in one autocommit statement instead of a transaction;
   * resolves to undefined when that is not possible now, and the job runs in a transaction.
   */
  readonly solo?: () => Promise<T | undefined>;
  /**
   * Work that needs no reads and no decision under a lock: the owner may commit it together with
   * other such jobs on the store's background writer (see {@link BatchHooks.background}).
   */
  readonly plain?: P;
}

/** How a queue's owner follows its transactions. */
export interface BatchHooks<B, P = unknown> {
  /** State shared by the jobs of one transaction. */
  begin(): B;
  /** Runs inside the transaction after its last job, before COMMIT. */
  beforeCommit?(tx: Queryable, batch: B): Promise<void>;
  /** Called once the transaction committed. */
  committed(batch: B): void;
  /**
   * After a COMMIT whose answer was lost (`err`, `outcome: 'unknown'`): whether the batch is stored,
   * read back. True settles it as committed (its jobs get what they were to get); false as never
   * committed, for good (its jobs run again, each alone); undefined leaves it unknown.
   */
  settle?(batch: B, err: unknown): Promise<boolean | undefined>;
  /**
   * Sends consecutive plain jobs to be committed off the event loop, without waiting: undefined when
   * that is not possible now. Its promise gives each job's value, or undefined when the batch was
   * refused with nothing written (the jobs then run in a transaction).
   */
  background?(plains: readonly P[]): Promise<readonly unknown[] | undefined> | undefined;
  /**
   * Whether background batches are pipelined (default): half the waiting jobs go at once and the
   * rest follow while it commits, two in flight at most. Without, one batch is in flight at a
   * time and takes every job waiting (PostgreSQL: two autocommit statements on two connections
   * could reach the head in either order).
   */
  readonly pipelined?: boolean;
}

interface Pending<B, P> {
  readonly job: CommitJob<unknown, B, P>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
  /** Refused or failed in the background once: it runs in a transaction now. */
  inTransaction?: boolean;
}

/** Background batches in flight at once: one committing while the next is prepared and queued. */
const MAX_FLIGHTS = 2;

/**
 * A queue with nothing in flight whose last commit ended longer ago than this is idle: its next job
 * starts at once (a microtask). A busier one waits a turn (`setImmediate`), so that appends arriving
 * in the same turn — HTTP requests parsed in one poll phase, producers woken by one commit — share a
 * transaction.
 */
const IDLE_MS = 2;

/**
 * Group commit: appends that arrive while a transaction is in flight are committed together in the
 * next one, so concurrent producers share one fsync. A job refused by its own checks fails alone; an
 * unexpected failure rolls the batch back and each job is retried in a transaction of its own, so one
 * bad job never costs another its write — unless the commit's outcome is unknown (the connection
 * dropped while COMMIT was in flight): then only jobs with idempotency keys are retried, since the
 * batch may have committed; and unless the store gave up on a wait (a lock held past its bound, a
 * database that did not answer in time): then every job fails with that answer, since each alone
 * would wait out the same bound again (a batch settled as never committed still runs again, job by
 * job), and so does every job queued behind it meanwhile, untried.
 *
 * An idle queue starts a job at once; one with a batch in flight, or that committed in the last
 * {@link IDLE_MS}, waits a turn for company first.
 *
 * With a background writer, runs of plain jobs are committed off the event loop instead, pipelined:
 * when several jobs wait, half go first and the rest follow at once, so one batch is prepared while
 * the other waits for its fsync. A job with reads or a decision waits until those batches are done.
 */
export class CommitQueue<B, P = unknown> {
  #pending: Pending<B, P>[] = [];
  #draining = false;
  /** When the queue last finished something: a drain, or a background batch (`performance.now()`). */
  #doneAt = Number.NEGATIVE_INFINITY;
  readonly #flights = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly hooks: BatchHooks<B, P>,
    private readonly maxBatch = 256,
  ) {}

  /** Jobs queued and not yet sent to a transaction or the background writer. */
  get depth(): number {
    return this.#pending.length;
  }

  /** Queues a job; resolves once its transaction commits. */
  push<T>(job: CommitJob<T, B, P>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ job, resolve: resolve as (v: unknown) => void, reject });
      this.#wake();
    });
  }

  #wake(): void {
    if (this.#draining) return;
    this.#draining = true;
    const run = () => {
      this.#drain().catch((err: unknown) => this.#abandon(err));
    };
    if (this.#flights.size === 0 && performance.now() - this.#doneAt > IDLE_MS) queueMicrotask(run);
    else setImmediate(run);
  }

  /**
   * A failure the loop did not expect (a bug, or a hook that threw): the jobs still queued fail with
   * it instead of waiting forever, and the next push starts a fresh loop. Nothing escapes to the
   * process as an unhandled rejection.
   */
  #abandon(err: unknown): void {
    const stranded = this.#pending.splice(0);
    this.#draining = false;
    this.#doneAt = performance.now();
    for (const pending of stranded) pending.reject(err);
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const lane = this.#plainRun();
      // A lone job with a one-statement path of its own takes it; anything else that is plain goes to
      // the background writer, which keeps its SQL and fsync off the event loop.
      const alone = this.#flights.size === 0 && this.#pending.length === 1;
      if (lane > 0 && !(alone && this.#pending[0]!.job.solo)) {
        const pipelined = this.hooks.pipelined !== false;
        if (this.#flights.size >= (pipelined ? MAX_FLIGHTS : 1)) {
          await Promise.race(this.#flights);
          continue;
        }
        const take = this.#flights.size === 0 && pipelined ? Math.ceil(lane / 2) : lane;
        if (this.#launch(Math.min(take, this.maxBatch))) continue;
      }
      if (this.#flights.size > 0) {
        // A transaction on the main connection starts after the batches sent before it.
        await Promise.all(this.#flights);
        continue;
      }
      const batch = this.#pending.splice(0, this.maxBatch);
      if (batch.length === 1 && batch[0]!.job.solo) {
        const [only] = batch as [Pending<B, P>];
        try {
          const value = await only.job.solo!();
          if (value !== undefined) {
            only.resolve(value);
            continue;
          }
        } catch (err) {
          only.reject(err);
          this.#shed(err);
          continue;
        }
      }
      try {
        this.#settle(batch, await this.#commit(batch));
      } catch (err) {
        const unknown = isUnknownOutcome(err);
        const again = rerunsAlone(err);
        for (const pending of batch) {
          // The batch may have committed: only jobs whose retry finds their first result may run again.
          // The store gave up on a wait (a lock held past its bound, an answer that did not come): a
          // job alone would wait it out again, so the batch fails with that answer.
          if ((unknown && !pending.job.retrySafe) || (!unknown && !again)) {
            pending.reject(err);
            continue;
          }
          try {
            this.#settle([pending], await this.#commit([pending]));
          } catch (alone) {
            pending.reject(alone);
          }
        }
        this.#shed(err);
      }
    }
    this.#draining = false;
    this.#doneAt = performance.now();
  }

  /**
   * After the store gave up on a wait (`err`, {@link isWaitedOut}), the jobs queued meanwhile fail
   * too, untried: each would wait out the same bound in the next transaction, so a write queued
   * behind a silent database would wait out one bound for every batch ahead of it. Their outcome is
   * known (nothing of them was sent), whatever the failed batch's was.
   */
  #shed(err: unknown): void {
    if (!isWaitedOut(err) || this.#pending.length === 0) return;
    const code = isCanonryError(err, 'STORE_BUSY') ? 'STORE_BUSY' : 'STORE_UNAVAILABLE';
    const reason = err instanceof Error ? err.message : String(err);
    for (const pending of this.#pending.splice(0)) {
      pending.reject(
        markWaitedOut(
          new CanonryError(
            code,
            `${reason}; this write was queued behind it and not tried: nothing of it was kept`,
            undefined,
            { cause: err },
          ),
        ),
      );
    }
  }

  /** How many jobs at the head of the queue could go to the background writer together. */
  #plainRun(): number {
    if (!this.hooks.background) return 0;
    let n = 0;
    while (n < this.#pending.length) {
      const next = this.#pending[n]!;
      if (next.job.plain === undefined || next.inTransaction) break;
      n++;
    }
    return n;
  }

  /** Sends the first `take` jobs to the background writer; false when the owner cannot now. */
  #launch(take: number): boolean {
    const batch = this.#pending.slice(0, take);
    let sent: ReturnType<NonNullable<BatchHooks<B, P>['background']>>;
    try {
      sent = this.hooks.background!(batch.map((p) => p.job.plain as P));
    } catch {
      // Building the batch failed (e.g. a checkpoint signer that was retired meanwhile): the jobs
      // run in transactions instead, where a failure is theirs alone.
      sent = undefined;
    }
    if (!sent) return false;
    this.#pending.splice(0, take);
    const flight: Promise<void> = sent
      .then(
        (values) => {
          if (!values) return this.#again(batch);
          batch.forEach((p, i) => {
            p.resolve(values[i]);
          });
        },
        (err: unknown) => {
          // Whether it committed is unknown (the thread died): running it again could write it twice.
          // A lock not granted within its bound: in a transaction each would wait it out again.
          if (isUnknownOutcome(err) || isCanonryError(err, 'STORE_BUSY')) {
            for (const p of batch) p.reject(err);
            this.#shed(err);
          } else this.#again(batch);
        },
      )
      .finally(() => {
        this.#flights.delete(flight);
        this.#doneAt = performance.now();
      });
    this.#flights.add(flight);
    return true;
  }

  /**
   * A batch the background writer refused, or whose transaction failed and rolled back: nothing of
   * it was written, so its jobs run again, in transactions, ahead of newer work.
   */
  #again(batch: readonly Pending<B, P>[]): void {
    const firstNew = this.#pending.findIndex((p) => !p.inTransaction);
    for (const p of batch) p.inTransaction = true;
    this.#pending.splice(firstNew === -1 ? this.#pending.length : firstNew, 0, ...batch);
    this.#wake();
  }

  async #commit(batch: readonly Pending<B, P>[]): Promise<Outcome[]> {
    // What the attempt that reached COMMIT built, for settling a COMMIT that went unanswered.
    let tried: { outcomes: Outcome[]; state: B } | undefined;
    let done: { outcomes: Outcome[]; state: B };
    try {
      done = await this.store.transaction(async (tx) => {
        // Per attempt: a transaction the store retries (a deadlock, a serialisation failure) was
        // rolled back, and what its first run locked, read and built went with it.
        tried = undefined;
        const state = this.hooks.begin();
        const outcomes = await runBatch(tx, batch, state);
        await this.hooks.beforeCommit?.(tx, state);
        tried = { outcomes, state };
        return tried;
      });
    } catch (err) {
      if (!isUnknownOutcome(err) || tried === undefined) throw err;
      const settled = await this.hooks.settle?.(tried.state, err);
      if (settled === false) {
        // Not stored, and the session that ran it is gone: as a failure before COMMIT, whose jobs
        // each run again alone.
        const absent = new CanonryError(
          'STORE_UNAVAILABLE',
          'the connection was lost before the transaction committed; nothing of it was kept',
          undefined,
          { cause: err },
        );
        settledAbsent.add(absent);
        throw absent;
      }
      if (settled !== true) throw err;
      done = tried;
    }
    this.hooks.committed(done.state);
    return done.outcomes;
  }

  #settle(batch: readonly Pending<B, P>[], outcomes: readonly Outcome[]): void {
    outcomes.forEach((outcome, i) => {
      const { resolve, reject } = batch[i]!;
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    });
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Failures of batches settled as never committed: their jobs run again, each alone. */
const settledAbsent = new WeakSet<object>();

/**
 * Whether the jobs of a batch that failed with `err` (its outcome known: rolled back) run again,
 * each alone, so that one bad job does not cost the others their writes. Not after the store gave
 * up on a wait (`isWaitedOut`: a lock not granted within its bound, a statement the database
 * cancelled, an answer that did not come in time): every job would wait out the same bound again,
 * one after another. A batch settled as never committed is the exception: its session ended, and
 * its jobs run again.
 */
function rerunsAlone(err: unknown): boolean {
  if (typeof err === 'object' && err !== null && settledAbsent.has(err)) return true;
  return !isWaitedOut(err);
}

async function runBatch<B, P>(
  tx: Queryable,
  batch: readonly Pending<B, P>[],
  state: B,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { job } of batch) {
    let write: () => Promise<unknown>;
    try {
      write = await job.check(tx, state);
    } catch (error) {
      if (!isCanonryError(error)) throw error;
      outcomes.push({ ok: false, error });
      continue;
    }
    outcomes.push({ ok: true, value: await write() });
  }
  return outcomes;
}
