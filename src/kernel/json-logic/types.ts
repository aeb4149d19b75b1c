import type { StepBudget } from '../budget.js';

/**
 * Where an expression is evaluated: the current data, what `{"val": [[1]]}` sees (the iteration of
 * `map`/`filter`/`all`/`some`/`none`; null inside `reduce` and a `try` fallback), the enclosing scope
 * (`[[2]]` climbs to its data) and the step budget every node charges.
 */
export class Scope {
  #meta: unknown;

  constructor(
    readonly data: unknown,
    readonly parent: Scope | null,
    readonly budget: StepBudget,
    readonly iterator: readonly unknown[] | null = null,
    readonly index = 0,
  ) {
    this.#meta = iterator === null ? (parent === null ? undefined : null) : undefined;
  }

  /** `{ iterator, index }` of an iteration (one object per element, built when first climbed to). */
  get meta(): unknown {
    if (this.#meta === undefined && this.iterator !== null) {
      this.#meta = built({ iterator: this.iterator, index: this.index });
    }
    return this.#meta;
  }
}

/**
 * Marks an object the evaluator made (an iteration's `{ iterator, index }`, a reduce step's
 * `{ accumulator, current }`, a caught error's `{ type }`): it has no prototype, which is how a
 * `reduce` tells it from artifact objects (see `ops-iterate.ts`).
 */
export function built<T extends object>(members: T): T {
  return Object.assign(Object.create(null) as T, members);
}

/** A compiled expression: evaluates in a scope, charging its budget. */
export type Node = (scope: Scope) => unknown;

/** Compiles one operation's argument (the value under the operator key) to a node. */
export type OperatorCompiler = (argument: unknown, compile: (node: unknown) => Node) => Node;
