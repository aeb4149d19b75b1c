import type { StepBudget } from '../budget.js';
import { plus, precoerce } from './coerce.js';
import { STEP_COSTS, textSteps } from './cost.js';
import { INVALID_ARGUMENTS, NOT_A_NUMBER } from './errors.js';
import type { Node, OperatorCompiler } from './types.js';

type Compare = (a: unknown, b: unknown) => boolean;

// Operands are primitives here (or, for === and !==, anything): JavaScript's operators are the
// semantics, so the casts only satisfy the type checker.
type P = number;
const RELATIONS: Record<string, Compare> = {
  // biome-ignore lint/suspicious/noDoubleEquals: JsonLogic's == is JavaScript's loose equality
  '==': (a, b) => (a as P) == (b as P),
  // biome-ignore lint/suspicious/noDoubleEquals: JsonLogic's != is JavaScript's loose inequality
  '!=': (a, b) => (a as P) != (b as P),
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '<': (a, b) => (a as P) < (b as P),
  '<=': (a, b) => (a as P) <= (b as P),
  '>': (a, b) => (a as P) > (b as P),
  '>=': (a, b) => (a as P) >= (b as P),
};

const isText = (value: unknown) => typeof value === 'string' || value === null;

/**
 * The right operand as a loose comparison sees it (json-logic-engine's `compareCheck`): between two
 * strings or nulls it is unchanged; otherwise both sides must be numbers or numeric text (NaN
 * otherwise), and `null` against a falsy value is adjusted so that `null == 0` holds.
 */
function checked(item: unknown, previous: unknown, budget: StepBudget): unknown {
  if (isText(item) && isText(previous)) return item;
  if (Number.isNaN(plus(precoerce(item), budget)) && previous !== null) throw NOT_A_NUMBER;
  if (Number.isNaN(plus(precoerce(previous), budget))) throw NOT_A_NUMBER;
  if (previous === null && !item) return null;
  if (item === null && !previous) return 0;
  return item;
}

/**
 * Steps for one comparison: two strings compare over their common length; a string against a
 * number is parsed again by the operator.
 */
function compareSteps(a: unknown, b: unknown): number {
  if (typeof a === 'string') {
    if (typeof b === 'string') return 1 + textSteps(Math.min(a.length, b.length));
    return 1 + Math.floor(a.length / STEP_COSTS.parsedCharsPerStep);
  }
  return typeof b === 'string' ? 1 + Math.floor(b.length / STEP_COSTS.parsedCharsPerStep) : 1;
}

/**
 * A comparison: two operands, or a chain (`{"<": [1, x, 3]}` is 1 < x < 3) that stops at the
 * first false link. `===` and `!==` compare as JavaScript does (arrays and objects by identity).
 */
function comparator(name: string): OperatorCompiler {
  const relation = RELATIONS[name] as Compare;
  const strict = name.length === 3;
  return (argument, compile) => {
    if (!Array.isArray(argument) || argument.length < 2) {
      return (scope) => {
        scope.budget.spend(1);
        throw INVALID_ARGUMENTS;
      };
    }
    const operands: Node[] = argument.map(compile);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      let previous = (operands[0] as Node)(scope);
      for (let i = 1; i < operands.length; i++) {
        const raw = (operands[i] as Node)(scope);
        const current = strict ? raw : checked(raw, previous, budget);
        budget.spend(compareSteps(previous, current));
        if (!relation(previous, current)) return false;
        previous = current;
      }
      return true;
    };
  };
}

/** `== === != !== > >= < <=`. */
export const COMPARE_OPERATORS: Record<string, OperatorCompiler> = Object.fromEntries(
  Object.keys(RELATIONS).map((name) => [name, comparator(name)]),
);
