/**
 * Long synchronous work on the event loop, in turns. A server's other requests (a `/healthz`, a
 * read) are answered only between turns, and a chain of `await`s on promises that are already
 * settled — every statement of the embedded SQLite store is one — never ends a turn.
 */

/** Resolves in a later turn of the event loop, after the I/O that is waiting now. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Ends the turn once `budgetMs` of work ran since the last yield: `await pacer.pace()` between the
 * steps of a long job bounds how long it holds the event loop to about one budget plus one step,
 * without a turn per step when the steps are short.
 */
export class TurnPacer {
  readonly #budgetMs: number;
  #since = performance.now();

  constructor(budgetMs = 4) {
    this.#budgetMs = budgetMs;
  }

  /** A later turn when the budget is spent, else nothing to wait for. */
  pace(): Promise<void> | undefined {
    if (performance.now() - this.#since < this.#budgetMs) return undefined;
    return this.yield();
  }

  /** A later turn, whatever the budget; the budget starts again then. */
  async yield(): Promise<void> {
    await nextTurn();
    this.#since = performance.now();
  }
}
