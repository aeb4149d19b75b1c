import { isCanonryError } from '../core/index.js';
import type { Queryable, Store } from '../store/index.js';

/** A unit of work for one transaction; `check` may refuse before anything is written. */
export interface CommitJob<T, B> {
  /** Reads and validates; a CanonryError thrown here fails this job only (nothing was written). */
  check(tx: Queryable, batch: B): Promise<() => Promise<T>>;
  /** Running it again after an unknown commit outcome cannot write it twice (idempotency keys). */
  readonly retrySafe?: boolean;
  /**
   * When the job is alone, a way to commit it in one autocommit statement instead of a transaction;
   * resolves to undefined when that is not possible now, and the job runs in a transaction.
   */
  readonly solo?: () => Promise<T | undefined>;
}

/** How a queue's owner follows its transactions. */
export interface BatchHooks<B> {
  /** State shared by the jobs of one transaction. */
  begin(): B;
  /** Runs inside the transaction after its last job, before COMMIT. */
  beforeCommit?(tx: Queryable, batch: B): Promise<void>;
  /** Called once the transaction committed. */
  committed(batch: B): void;
}

interface Pending<B> {
  readonly job: CommitJob<unknown, B>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Group commit: appends that arrive while a transaction is in flight are committed together in the
 * next one, so concurrent producers share one fsync. A job refused by its own checks fails alone; an
 * unexpected failure rolls the batch back and each job is retried in a transaction of its own, so one
 * bad job never costs another its write — unless the commit's outcome is unknown (the connection
 * dropped while COMMIT was in flight): then only jobs with idempotency keys are retried, since the
 * batch may have committed.
 */
export class CommitQueue<B> {
  #pending: Pending<B>[] = [];
  #draining = false;

  constructor(
    private readonly store: Store,
    private readonly hooks: BatchHooks<B>,
    private readonly maxBatch = 256,
  ) {}

  /** Queues a job; resolves once its transaction commits. */
  push<T>(job: CommitJob<T, B>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ job, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#draining) {
        this.#draining = true;
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, this.maxBatch);
      if (batch.length === 1 && batch[0]!.job.solo) {
        const [only] = batch as [Pending<B>];
        try {
          const value = await only.job.solo!();
          if (value !== undefined) {
            only.resolve(value);
            continue;
          }
        } catch (err) {
          only.reject(err);
          continue;
        }
      }
      try {
        this.#settle(batch, await this.#commit(batch));
      } catch (err) {
        const unknown = isCanonryError(err) && err.details?.outcome === 'unknown';
        for (const pending of batch) {
          // The batch may have committed: only jobs whose retry finds their first result may run again.
          if (unknown && !pending.job.retrySafe) {
            pending.reject(err);
            continue;
          }
          try {
            this.#settle([pending], await this.#commit([pending]));
          } catch (alone) {
            pending.reject(alone);
          }
        }
      }
    }
    this.#draining = false;
  }

  async #commit(batch: readonly Pending<B>[]): Promise<Outcome[]> {
    const state = this.hooks.begin();
    const outcomes = await this.store.transaction(async (tx) => {
      const done = await runBatch(tx, batch, state);
      await this.hooks.beforeCommit?.(tx, state);
      return done;
    });
    this.hooks.committed(state);
    return outcomes;
  }

  #settle(batch: readonly Pending<B>[], outcomes: readonly Outcome[]): void {
    outcomes.forEach((outcome, i) => {
      const { resolve, reject } = batch[i]!;
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    });
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function runBatch<B>(
  tx: Queryable,
  batch: readonly Pending<B>[],
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
