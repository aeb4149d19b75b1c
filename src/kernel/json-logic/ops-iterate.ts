import type { StepBudget } from '../budget.js';
import { isTruthy } from './coerce.js';
import { STEP_COSTS } from './cost.js';
import { EXCEEDED_DEPTH, INVALID_ARGUMENTS } from './errors.js';
import { Built, type Node, type OperatorCompiler, ReduceContext, Scope } from './types.js';

/**
 * The iterators. The array comes first and is evaluated in the current scope; the mapper or
 * predicate runs once per element in a scope of its own (its data is the element; `[[1]]` climbs
 * to `{ iterator, index }`, `[[2]]` to the enclosing data). Elements are charged before the loop
 * (`map`/`filter` per element kept, `reduce` per step), `all`/`some`/`none` as they visit.
 */

/** `map`/`filter`/`reduce` need both their array and their mapper, neither a literal null. */
function checkedParts(
  argument: unknown,
  compile: (node: unknown) => Node,
): [Node, Node, unknown[]] {
  if (!Array.isArray(argument)) throw INVALID_ARGUMENTS;
  const [array, mapper] = argument;
  if (array === undefined || array === null || mapper === undefined || mapper === null) {
    throw INVALID_ARGUMENTS;
  }
  return [compile(array), compile(mapper), argument];
}

/** The array to iterate, charged `perElement` steps an element; falsy is empty, else an error. */
function elements(value: unknown, budget: StepBudget, perElement: number): readonly unknown[] {
  if (!value) return [];
  if (!Array.isArray(value)) throw INVALID_ARGUMENTS;
  budget.spend(value.length * perElement);
  return value;
}

const map: OperatorCompiler = (argument, compile) => {
  const [array, mapper] = checkedParts(argument, compile);
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1 + STEP_COSTS.allocation + STEP_COSTS.scope);
    const items = elements(array(scope), budget, STEP_COSTS.builtElement);
    const result = new Array<unknown>(items.length);
    const inner = new Scope(undefined, scope, budget, items);
    for (let i = 0; i < items.length; i++) result[i] = mapper(inner.enter(i));
    return result;
  };
};

const filter: OperatorCompiler = (argument, compile) => {
  const [array, predicate] = checkedParts(argument, compile);
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1 + STEP_COSTS.allocation + STEP_COSTS.scope);
    const items = elements(array(scope), budget, STEP_COSTS.builtElement);
    const result: unknown[] = [];
    const inner = new Scope(undefined, scope, budget, items);
    for (let i = 0; i < items.length; i++) {
      if (isTruthy(predicate(inner.enter(i)))) result.push(items[i]);
    }
    return result;
  };
};

/**
 * A reduce accumulator may not nest (json-logic-engine's depth 0): an array holding arrays or
 * objects, or one of the evaluator's own objects (a step's `{ accumulator, current }`) holding
 * them, is EXCEEDED_DEPTH. Objects read from the artifact are not enumerated: the rule did not
 * build them, their depth is the artifact's, and enumerating a large parsed object costs
 * milliseconds whatever the budget says.
 */
function flat(value: unknown, budget: StepBudget): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    budget.spend(value.length);
    for (const item of value) if (item !== null && typeof item === 'object') throw EXCEEDED_DEPTH;
  } else if (value instanceof Built) {
    const members = value as Record<string, unknown>;
    for (const key in members) {
      const item = members[key];
      if (item !== null && typeof item === 'object') throw EXCEEDED_DEPTH;
    }
  }
  return value;
}

const reduce: OperatorCompiler = (argument, compile) => {
  const [array, mapper, parts] = checkedParts(argument, compile);
  const initial = parts.length > 2 ? compile(parts[2]) : null;
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1 + STEP_COSTS.scope);
    const items = elements(array(scope), budget, STEP_COSTS.reduceStep);
    let accumulator: unknown;
    let start = 0;
    if (initial !== null) accumulator = flat(initial(scope), budget);
    else if (items.length === 0) throw INVALID_ARGUMENTS;
    else {
      accumulator = items[0];
      start = 1;
    }
    const inner = new Scope(undefined, scope, budget, null);
    for (let i = start; i < items.length; i++) {
      inner.data = new ReduceContext(accumulator, items[i]);
      accumulator = flat(mapper(inner), budget);
    }
    return accumulator;
  };
};

/** `all`/`some`/`none`: the array must be an array (a missing field is an error, not empty). */
function quantifier(kind: 'all' | 'some' | 'none'): OperatorCompiler {
  return (argument, compile) => {
    if (!Array.isArray(argument)) {
      if (kind !== 'all') throw INVALID_ARGUMENTS;
      return (scope) => {
        scope.budget.spend(1);
        throw INVALID_ARGUMENTS;
      };
    }
    const array: Node | null = argument.length > 0 ? compile(argument[0]) : null;
    const predicate = compile(argument[1]);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      const items = array === null ? undefined : array(scope);
      if (!Array.isArray(items)) throw INVALID_ARGUMENTS;
      budget.spend(STEP_COSTS.scope);
      if (kind === 'all' && items.length === 0) return false;
      const wanted = kind !== 'all';
      const inner = new Scope(undefined, scope, budget, items);
      for (let i = 0; i < items.length; i++) {
        budget.spend(1);
        const truthy = isTruthy(predicate(inner.enter(i)));
        if (truthy === wanted) return kind === 'some';
      }
      return kind !== 'some';
    };
  };
}

/** `map filter reduce all some none`. */
export const ITERATOR_OPERATORS: Record<string, OperatorCompiler> = {
  map,
  filter,
  reduce,
  all: quantifier('all'),
  some: quantifier('some'),
  none: quantifier('none'),
};
