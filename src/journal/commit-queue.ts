import { isCanonryError } from '../core/index.js';
import type { Queryable, Store } from '../store/index.js';

/** A unit of work for one transaction; `check` may refuse before anything is written. */
export interface CommitJob<T> {
  /** Reads and validates; a CanonryError thrown here fails this job only (nothing was written). */
  check(tx: Queryable): Promise<() => Promise<T>>;
}

interface Pending {
  readonly job: CommitJob<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Group commit: appends that arrive while a transaction is in flight are committed together in the
 * next one, so concurrent producers share one fsync. A job refused by its own checks fails alone; an
 * unexpected failure rolls the batch back and each job is retried in a transaction of its own, so one
 * bad job never costs another its write.
 */
export class CommitQueue {
  #pending: Pending[] = [];
  #draining = false;

  constructor(
    private readonly store: Store,
    private readonly maxBatch = 256,
  ) {}

  /** Queues a job; resolves once its transaction commits. */
  push<T>(job: CommitJob<T>): Promise<T> {
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
      try {
        const outcomes = await this.store.transaction((tx) => runBatch(tx, batch));
        outcomes.forEach((outcome, i) => {
          const { resolve, reject } = batch[i]!;
          if (outcome.ok) resolve(outcome.value);
          else reject(outcome.error);
        });
      } catch {
        for (const pending of batch) await this.#alone(pending);
      }
    }
    this.#draining = false;
  }

  async #alone({ job, resolve, reject }: Pending): Promise<void> {
    try {
      const outcome = await this.store.transaction(
        async (tx) => (await runBatch(tx, [{ job, resolve, reject }]))[0]!,
      );
      if (outcome.ok) resolve(outcome.value);
      else reject(outcome.error);
    } catch (err) {
      reject(err);
    }
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function runBatch(tx: Queryable, batch: readonly Pending[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const { job } of batch) {
    let write: () => Promise<unknown>;
    try {
      write = await job.check(tx);
    } catch (error) {
      if (!isCanonryError(error)) throw error;
      outcomes.push({ ok: false, error });
      continue;
    }
    outcomes.push({ ok: true, value: await write() });
  }
  return outcomes;
}
