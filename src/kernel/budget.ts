/**
 * A deterministic evaluation budget, counted in steps rather than time: the same (artifact, protocol)
 * always spends the same number of steps, so exhausting a budget is a verdict (TCP/AP §5), never a
 * race against the clock.
 */
export class StepBudget {
  #used = 0;

  constructor(readonly limit: number) {}

  /** Steps spent so far (may pass the limit by the last charge). */
  get used(): number {
    return this.#used;
  }

  /** True once more than `limit` steps were charged. */
  get exhausted(): boolean {
    return this.#used > this.limit;
  }

  /** Charges `steps`; false once the budget is exhausted (the caller stops and reports it). */
  charge(steps: number): boolean {
    this.#used += steps;
    return this.#used <= this.limit;
  }

  /** Charges `steps` and throws {@link BUDGET_EXHAUSTED} once the budget is exhausted. */
  spend(steps: number): void {
    this.#used += steps;
    if (this.#used > this.limit) throw BUDGET_EXHAUSTED;
  }
}

/**
 * Thrown by {@link StepBudget.spend}: one frozen value, so any code can tell it apart from an error a
 * rule raised on purpose (`throw` in JsonLogic) and nothing can catch-and-continue past it unnoticed.
 */
export const BUDGET_EXHAUSTED: Readonly<{ type: 'canonry:budget-exhausted' }> = Object.freeze({
  type: 'canonry:budget-exhausted',
});

/** True for the value {@link StepBudget.spend} throws. */
export function isBudgetExhausted(value: unknown): boolean {
  return value === BUDGET_EXHAUSTED;
}

/**
 * The step budgets of one evaluation: one for the constraints (JSON Schema), one shared by all the
 * rules. Each is calibrated so that spending it whole holds the event loop for at most ~15 ms on a
 * 2-core machine (`bench/kernel/worst-case.js` measures the worst protocols against them).
 */
export const EVALUATION_BUDGET = Object.freeze({
  constraints: 500_000,
  rules: 1_000_000,
});
