/** Options for {@link Backoff}. */
export interface BackoffOptions {
  /** The first pause before jitter (ms, ≥ 0); each later one doubles it. */
  readonly firstMs: number;
  /** The ceiling: no pause is longer (ms, ≥ 0; a `firstMs` above it starts at it). */
  readonly maxMs: number;
  /** Jittered pauses (default true, equal jitter); false: exactly the doubling sequence. */
  readonly jitter?: boolean;
  /** Uniform in [0, 1) (default `Math.random`); tests and callers that keep retries in step inject one. */
  readonly random?: () => number;
}

/**
 * Pauses between attempts at something that failed for now: `next()` is the pause before the next
 * attempt, its step doubling from `firstMs` up to `maxMs`; `reset()` after a success starts again
 * from `firstMs`.
 *
 * Jitter is "equal jitter": a pause is half its step plus a random part of the other half, so it
 * lies in [step / 2, step]. Processes that lost the database at the same moment would otherwise ask
 * again at the same moments, all together, at every step; spread over half the step, their retries
 * arrive apart. Full jitter (anywhere in [0, step]) spreads more but may retry almost at once,
 * hammering a store that is still down; the fixed half keeps every pause a real backoff, and no
 * pause ever passes the ceiling, so the longest wait is the same as without jitter.
 */
export class Backoff {
  readonly #first: number;
  readonly #max: number;
  readonly #jitter: boolean;
  readonly #random: () => number;
  #step: number;

  constructor({ firstMs, maxMs, jitter = true, random = Math.random }: BackoffOptions) {
    if (!Number.isFinite(firstMs) || firstMs < 0) throw new RangeError('firstMs must be >= 0');
    if (!Number.isFinite(maxMs) || maxMs < 0) throw new RangeError('maxMs must be >= 0');
    this.#first = Math.min(firstMs, maxMs);
    this.#max = maxMs;
    this.#jitter = jitter;
    this.#random = random;
    this.#step = this.#first;
  }

  /** The step the next pause is drawn from (the pause itself, without jitter). */
  get step(): number {
    return this.#step;
  }

  /** The pause before the next attempt (whole ms when the steps are); doubles the step. */
  next(): number {
    const step = this.#step;
    this.#step = Math.min(this.#max, step * 2);
    if (!this.#jitter) return step;
    const r = Math.min(Math.max(this.#random(), 0), 1);
    return Math.round(step / 2 + (r * step) / 2);
  }

  /** An attempt succeeded: the next pause is the first again. */
  reset(): void {
    this.#step = this.#first;
  }
}
