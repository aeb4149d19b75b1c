import type { StepBudget } from '../budget.js';

/**
 * Where an expression is evaluated: the current data, what `{"val": [[1]]}` sees (an iteration's
 * `{ iterator, index }`; null inside `reduce` and a `try` fallback; nothing at the top), the
 * enclosing scope (`[[2]]` climbs to its data) and the step budget every node charges.
 *
 * An iterator makes one scope per call and moves it along its elements (`enter`), so visiting an
 * element allocates nothing; a scope never outlives the evaluation of the node that made it.
 */
export class Scope {
  /** The element's index in an iteration scope. */
  index = 0;
  /** The `{ iterator, index }` object of the current element, built when first climbed to. */
  private metaCache: unknown;

  constructor(
    public data: unknown,
    readonly parent: Scope | null,
    readonly budget: StepBudget,
    readonly iterator: readonly unknown[] | null,
  ) {
    this.metaCache = iterator !== null || parent === null ? undefined : null;
  }

  /** Moves an iteration scope to element `index`. */
  enter(index: number): this {
    this.index = index;
    this.data = (this.iterator as readonly unknown[])[index];
    this.metaCache = undefined;
    return this;
  }

  /** What `[[1]]` climbs to: `{ iterator, index }`, null (reduce, try) or undefined (the top). */
  get meta(): unknown {
    if (this.metaCache === undefined && this.iterator !== null) {
      this.metaCache = new IterationMeta(this.iterator, this.index);
    }
    return this.metaCache;
  }
}

/**
 * An object the evaluator makes: an iteration's `{ iterator, index }`, a reduce step's
 * `{ accumulator, current }`, a caught error's `{ type }`. Their prototype chain holds nothing
 * (no `toString`, no `constructor`), and `instanceof Built` is how a `reduce` tells them from
 * artifact objects (see `ops-iterate.ts`).
 */
export class Built {}
Object.setPrototypeOf(Built.prototype, null);

/** What `{"val": [[1]]}` sees inside `map`, `filter`, `all`, `some` and `none`. */
export class IterationMeta extends Built {
  constructor(
    readonly iterator: readonly unknown[],
    readonly index: number,
  ) {
    super();
  }
}

/** The data of a `reduce` step. */
export class ReduceContext extends Built {
  constructor(
    readonly accumulator: unknown,
    readonly current: unknown,
  ) {
    super();
  }
}

/** The data of a `try` fallback: the type of the error it caught. */
export class ErrorContext extends Built {
  constructor(readonly type: unknown) {
    super();
  }
}

/** A compiled expression: evaluates in a scope, charging its budget. */
export type Node = (scope: Scope) => unknown;

/** Compiles one operation's argument (the value under the operator key) to a node. */
export type OperatorCompiler = (argument: unknown, compile: (node: unknown) => Node) => Node;
