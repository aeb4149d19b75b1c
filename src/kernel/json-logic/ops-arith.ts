import type { StepBudget } from '../budget.js';
import { compileArgs, isOperation } from './args.js';
import { notNaN, operandNumber, plus, precoerce } from './coerce.js';
import { STEP_COSTS } from './cost.js';
import { INVALID_ARGUMENTS, NOT_A_NUMBER } from './errors.js';
import type { Node, OperatorCompiler, Scope } from './types.js';

/**
 * Arithmetic follows json-logic-engine's compiled code. Operands written as a list are numbers:
 * a literal string that is not numeric, or a literal array, fails when the rule is compiled; an
 * operation's value passes `precoerce` (NaN, arrays, objects fail) and unary `+`. A single
 * operation as the whole argument (`{"+": {"var": "xs"}}`) folds the array it returns.
 */

type Operand = (scope: Scope) => number;

function literalNumber(node: unknown): number {
  if (Array.isArray(node)) throw NOT_A_NUMBER;
  if (node === null) return 0;
  const value = +(node as number);
  if (typeof node === 'string' && Number.isNaN(value)) throw NOT_A_NUMBER;
  return value;
}

function operand(node: unknown, compile: (node: unknown) => Node): Operand {
  if (!isOperation(node)) {
    const value = literalNumber(node);
    return () => value;
  }
  const evaluate = compile(node);
  return (scope) => operandNumber(evaluate(scope), scope.budget);
}

/** True when a literal divisor is zero once coerced (json-logic-engine refuses it when compiling). */
function isLiteralZero(node: unknown): boolean {
  return (typeof node === 'number' || typeof node === 'string') && literalNumber(node) === 0;
}

/** The list form: operands of the rule, or a scalar standing for a list of one. */
function listOf(argument: unknown): unknown[] {
  return Array.isArray(argument) ? argument : [argument];
}

/** An object as `+value` sees it: NaN, or a TypeError for an own `toString` member. */
function objectNumber(value: object): never {
  throw Object.hasOwn(value, 'toString') ? INVALID_ARGUMENTS : NOT_A_NUMBER;
}

function dynamicArray(value: unknown, budget: StepBudget, minimum: number): unknown[] {
  if (!Array.isArray(value) || value.length < minimum) throw INVALID_ARGUMENTS;
  budget.spend(value.length * STEP_COSTS.foldedElement);
  return value;
}

/** `+`: a sum; an operation's array is summed without the NaN check. */
const sum: OperatorCompiler = (argument, compile) => {
  if (isOperation(argument)) {
    const list = compile(argument);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      const value = list(scope);
      if (Array.isArray(value)) {
        budget.spend(value.length * STEP_COSTS.foldedElement);
        let total = 0;
        for (const item of value) total = +total + operandNumber(item, budget);
        return total;
      }
      if (value !== null && typeof value === 'object') objectNumber(value);
      return notNaN(plus(value, budget));
    };
  }
  const operands = listOf(argument).map((node) => operand(node, compile));
  return (scope) => {
    scope.budget.spend(1 + operands.length);
    let total = 0;
    for (let i = 0; i < operands.length; i++) {
      const value = (operands[i] as Operand)(scope);
      total = i === 0 ? value : total + value;
    }
    return notNaN(total);
  };
};

/** `*`: a product; an operation must return an array. */
const product: OperatorCompiler = (argument, compile) => {
  if (isOperation(argument)) {
    const list = compile(argument);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      let total: unknown = 1;
      for (const item of dynamicArray(list(scope), budget, 0)) {
        total = operandNumber(total, budget) * operandNumber(item, budget);
      }
      return total;
    };
  }
  const operands = listOf(argument).map((node) => operand(node, compile));
  return (scope) => {
    scope.budget.spend(1 + operands.length);
    let total = 1;
    for (let i = 0; i < operands.length; i++) {
      const value = (operands[i] as Operand)(scope);
      total = i === 0 ? value : total * value;
    }
    return notNaN(total);
  };
};

/** A left fold of an operation's array (no initial value), as `-`, `/` and `%` do it. */
function fold(
  items: unknown[],
  budget: StepBudget,
  step: (a: number, b: unknown, budget: StepBudget) => number,
): unknown {
  let total: unknown = items[0];
  for (let i = 1; i < items.length; i++)
    total = step(operandNumber(total, budget), items[i], budget);
  return total;
}

/** The operator over the value of a single operation (`{"-": {"var": "xs"}}`). */
function overValue(evaluate: (value: unknown, budget: StepBudget) => unknown): OperatorCompiler {
  return (argument, compile) => {
    const list = compile(argument);
    return (scope) => {
      scope.budget.spend(1);
      return evaluate(list(scope), scope.budget);
    };
  };
}

const dynamicMinus = overValue((value, budget) => {
  if (!Array.isArray(value)) {
    if (value !== null && typeof value === 'object') objectNumber(value);
    return -notNaN(plus(value, budget));
  }
  if (value.length === 1) return -plus(precoerce(value[0]), budget);
  return fold(dynamicArray(value, budget, 1), budget, (a, b) => a - operandNumber(b, budget));
});

const dynamicDivide = overValue((value, budget) => {
  const items = dynamicArray(value, budget, 1);
  if (items.length === 1) return 1 / plus(precoerce(items[0] || Number.NaN), budget);
  return fold(items, budget, (a, b) => a / operandNumber(b || Number.NaN, budget));
});

const dynamicModulo = overValue((value, budget) =>
  fold(dynamicArray(value, budget, 2), budget, (a, b) => a % operandNumber(b, budget)),
);

/** `-`: negation of one operand, else a left-to-right difference. */
const difference: OperatorCompiler = (argument, compile) => {
  if (isOperation(argument)) return dynamicMinus(argument, compile);
  const nodes = listOf(argument);
  if (nodes.length === 0) throw INVALID_ARGUMENTS;
  const operands = nodes.map((node) => operand(node, compile));
  return (scope) => {
    scope.budget.spend(1 + operands.length);
    if (operands.length === 1) return -notNaN((operands[0] as Operand)(scope));
    let total = (operands[0] as Operand)(scope);
    for (let i = 1; i < operands.length; i++) total -= (operands[i] as Operand)(scope);
    return notNaN(total);
  };
};

/** `/`: a left-to-right quotient; a zero divisor is NaN; `{"/": [x]}` is 1 / x. */
const quotient: OperatorCompiler = (argument, compile) => {
  if (isOperation(argument)) return dynamicDivide(argument, compile);
  let nodes = listOf(argument);
  if (nodes.length === 0) throw INVALID_ARGUMENTS;
  if (nodes.length === 1) nodes = [1, nodes[0]];
  if (nodes.slice(1).some(isLiteralZero)) throw NOT_A_NUMBER;
  const operands = nodes.map((node) => operand(node, compile));
  return (scope) => {
    scope.budget.spend(1 + operands.length);
    let total = (operands[0] as Operand)(scope);
    for (let i = 1; i < operands.length; i++) {
      total /= notNaN((operands[i] as Operand)(scope) || Number.NaN);
    }
    return notNaN(total);
  };
};

/** `%`: a left-to-right remainder of two or more operands. */
const remainder: OperatorCompiler = (argument, compile) => {
  if (isOperation(argument)) return dynamicModulo(argument, compile);
  const nodes = listOf(argument);
  if (nodes.length < 2) throw INVALID_ARGUMENTS;
  const operands = nodes.map((node) => operand(node, compile));
  return (scope) => {
    scope.budget.spend(1 + operands.length);
    let total = (operands[0] as Operand)(scope);
    for (let i = 1; i < operands.length; i++) total %= (operands[i] as Operand)(scope);
    return notNaN(total);
  };
};

/** `min` / `max`: numbers only, at least one. */
function extreme(pick: (a: number, b: number) => boolean): OperatorCompiler {
  return (argument, compile) => {
    const args = compileArgs(argument, compile);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      const values = args(scope);
      budget.spend(values.length);
      const first = values[0];
      if (typeof first !== 'number') throw INVALID_ARGUMENTS;
      let best = first;
      for (let i = 1; i < values.length; i++) {
        const value = values[i];
        if (typeof value !== 'number') throw INVALID_ARGUMENTS;
        if (pick(value, best)) best = value;
      }
      return best;
    };
  };
}

/** `+ - * / % min max`. */
export const ARITHMETIC_OPERATORS: Record<string, OperatorCompiler> = {
  '+': sum,
  '-': difference,
  '*': product,
  '/': quotient,
  '%': remainder,
  min: extreme((a, b) => a < b),
  max: extreme((a, b) => a > b),
};
