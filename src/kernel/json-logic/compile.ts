import type { StepBudget } from '../budget.js';
import { STEP_COSTS } from './cost.js';
import { OPERATORS } from './operators.js';
import { type Node, Scope } from './types.js';

/** A compiled condition: evaluates against `data`, charging `budget`. */
export type Evaluator = (data: unknown, budget: StepBudget) => unknown;

function constant(value: unknown): Node {
  return () => value;
}

/** Compiles one node of a checked condition (see `compileLogic`). */
export function compileNode(node: unknown): Node {
  if (Array.isArray(node)) {
    const items = node.map(compileNode);
    const count = items.length;
    const steps = STEP_COSTS.allocation + count * STEP_COSTS.listElement;
    return (scope) => {
      scope.budget.spend(steps);
      const values = new Array<unknown>(count);
      for (let i = 0; i < count; i++) values[i] = (items[i] as Node)(scope);
      return values;
    };
  }
  if (node === null || typeof node !== 'object') return constant(node);
  const operator = Object.keys(node)[0] as string;
  const compiler = OPERATORS[operator];
  if (compiler === undefined) throw new TypeError(`unknown operator ${JSON.stringify(operator)}`);
  return compiler((node as Record<string, unknown>)[operator], compileNode);
}

/**
 * Compiles a condition once into a tree of closures. A constant failure found while compiling
 * (`{"/": [1, 0]}`, `{"map": 5}`, …) makes a condition that throws it on every evaluation.
 */
export function compileCondition(condition: unknown): Evaluator {
  let root: Node;
  try {
    root = compileNode(condition);
  } catch (failure) {
    return (_data, budget) => {
      budget.spend(1);
      throw failure;
    };
  }
  return (data, budget) => root(new Scope(data, null, budget, null));
}
