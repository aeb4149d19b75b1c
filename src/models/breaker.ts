/** Where a breaker stands: calling, holding off until `until`, or letting one probe through. */
export type BreakerState =
  | { readonly status: 'closed' }
  | { readonly status: 'open'; readonly until: number }
  | { readonly status: 'probing' };

/**
 * A circuit breaker over one model: after a call fails for want of a model it opens for the
 * cool-down (or longer, when the server asked for a longer pause), and calls fail fast instead of
 * each waiting out its timeout. When the cool-down ends one call goes through as a probe; its
 * success closes the breaker, its failure opens it again. A cool-down of 0 disables it.
 */
export class Breaker {
  readonly cooldownMs: number;
  readonly #now: () => number;
  #state: BreakerState = { status: 'closed' };

  constructor(cooldownMs: number, now: () => number = Date.now) {
    this.cooldownMs = cooldownMs;
    this.#now = now;
  }

  /** The current state (for tests and diagnostics). */
  get state(): BreakerState {
    return this.#state;
  }

  /**
   * Asks to call the model: null when the call may go ahead (it may be the probe), otherwise the ms
   * to wait before asking again.
   */
  admit(): number | null {
    const state = this.#state;
    if (this.cooldownMs === 0 || state.status === 'closed') return null;
    // A probe is in flight: the others wait for its answer rather than pile onto a failing model.
    if (state.status === 'probing') return this.cooldownMs;
    const left = state.until - this.#now();
    if (left > 0) return left;
    this.#state = { status: 'probing' };
    return null;
  }

  /** Ms the breaker stays open; 0 when closed or probing (the probe itself may retry). */
  remaining(): number {
    const state = this.#state;
    return state.status === 'open' ? Math.max(0, state.until - this.#now()) : 0;
  }

  /** The model answered: close. */
  succeeded(): void {
    this.#state = { status: 'closed' };
  }

  /** The model could not be asked: open for the cool-down, or for `hintMs` when that is longer. */
  failed(hintMs = 0): void {
    if (this.cooldownMs === 0) return;
    this.#state = { status: 'open', until: this.#now() + Math.max(this.cooldownMs, hintMs) };
  }
}
