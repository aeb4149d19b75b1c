import { isTruthy } from './coerce.js';
import { INVALID_ARGUMENTS } from './errors.js';
import type { Node, OperatorCompiler } from './types.js';

function invalid(): Node {
  return (scope) => {
    scope.budget.spend(1);
    throw INVALID_ARGUMENTS;
  };
}

/** `and` (first falsy or last) / `or` (first truthy or last); no arguments is false. */
function junction(stopWhen: boolean): OperatorCompiler {
  return (argument, compile) => {
    if (!Array.isArray(argument)) return invalid();
    const operands = argument.map(compile);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      let value: unknown = false;
      for (const operand of operands) {
        budget.spend(1);
        value = operand(scope);
        if (isTruthy(value) === stopWhen) return value;
      }
      return value;
    };
  };
}

/** `if` / `?:`: condition, then-branch pairs and an optional else (null when absent). */
const compileIf: OperatorCompiler = (argument, compile) => {
  if (!Array.isArray(argument)) return invalid();
  const parts = argument.map(compile);
  const last = parts.length % 2 === 1 ? parts[parts.length - 1] : undefined;
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1);
    for (let i = 0; i + 1 < parts.length; i += 2) {
      budget.spend(1);
      if (isTruthy((parts[i] as Node)(scope))) return (parts[i + 1] as Node)(scope);
    }
    return last === undefined ? null : last(scope);
  };
};

/** `!` / `!!` read their first argument when given an array, else the argument's value. */
function negation(negate: boolean): OperatorCompiler {
  return (argument, compile) => {
    const operand: Node | undefined = Array.isArray(argument)
      ? argument.length > 0
        ? compile(argument[0])
        : undefined
      : compile(argument);
    return (scope) => {
      scope.budget.spend(1);
      const truthy = operand === undefined ? false : isTruthy(operand(scope));
      return negate ? !truthy : truthy;
    };
  };
}

/** `??`: the first operand that is not null. */
const coalesce: OperatorCompiler = (argument, compile) => {
  if (Array.isArray(argument)) {
    const operands = argument.map(compile);
    return (scope) => {
      const budget = scope.budget;
      budget.spend(1);
      let value: unknown = null;
      for (const operand of operands) {
        budget.spend(1);
        value = operand(scope);
        if (value !== null && value !== undefined) return value;
      }
      return value;
    };
  }
  const list = compile(argument);
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1);
    const values = list(scope);
    if (!Array.isArray(values)) throw INVALID_ARGUMENTS;
    budget.spend(values.length);
    for (const value of values) if (value !== null && value !== undefined) return value;
    return null;
  };
};

/** `and or if ?: ! !! ??`. */
export const CONTROL_OPERATORS: Record<string, OperatorCompiler> = {
  and: junction(false),
  or: junction(true),
  if: compileIf,
  '?:': compileIf,
  '!': negation(true),
  '!!': negation(false),
  '??': coalesce,
};
