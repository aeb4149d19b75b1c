import type { StepBudget } from '../budget.js';
import { compileArgs } from './args.js';
import { scalarText, textWithin, toPrimitive, toText } from './coerce.js';
import { STEP_COSTS, textSteps } from './cost.js';
import { INVALID_ARGUMENTS } from './errors.js';
import type { Node, OperatorCompiler } from './types.js';

/** Bounds on what `cat` and `merge` may build. */
export const BUILD_LIMITS = Object.freeze({
  /** Longest string `cat` may produce. */
  maxStringLength: 1 << 16,
  /** Longest array `merge` may produce. */
  maxArrayLength: 1 << 15,
});

/** `cat`: the texts of the arguments (null skipped), at most {@link BUILD_LIMITS} characters. */
const cat: OperatorCompiler = (argument, compile) => {
  const args = compileArgs(argument, compile);
  const limit = BUILD_LIMITS.maxStringLength;
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1 + STEP_COSTS.allocation);
    const values = args(scope);
    budget.spend(values.length);
    let text = '';
    for (const value of values) {
      if (value === null || value === undefined) continue;
      const piece = toText(value, budget, limit - text.length);
      if (text.length + piece.length > limit) throw INVALID_ARGUMENTS;
      budget.spend(textSteps(piece.length));
      text += piece;
    }
    return text;
  };
};

/** `substr`: JavaScript's `substr(from, length)`, a negative length counting from the end. */
const substr: OperatorCompiler = (argument, compile) => {
  const args = compileArgs(argument, compile);
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1 + STEP_COSTS.allocation);
    const [source, rawFrom, rawEnd] = args(scope);
    let text: string;
    if (typeof source === 'string') text = source;
    else if (typeof source === 'number' || typeof source === 'boolean') {
      text = scalarText(source, budget);
    } else throw INVALID_ARGUMENTS;
    // Primitives only from here, so JavaScript's own coercions apply and stay cheap.
    const bounds = [toPrimitive(rawFrom, budget), toPrimitive(rawEnd, budget)];
    for (const bound of bounds)
      if (typeof bound === 'string') budget.spend(textSteps(bound.length));
    const [from, end] = bounds as [number, number];
    let result: string;
    if (end < 0) {
      const rest = text.substr(from);
      result = rest.substr(0, rest.length + end);
    } else result = text.substr(from, end);
    budget.spend(textSteps(result.length));
    return result;
  };
};

/** Whether `needle` is an element of an array (SameValueZero) or a substring of a string. */
function includes(haystack: unknown, needle: unknown, budget: StepBudget): boolean {
  if (!haystack) return false;
  if (Array.isArray(haystack)) {
    budget.spend(haystack.length);
    const text = typeof needle === 'string' ? needle.length : -1;
    for (const item of haystack) {
      if (typeof item === 'string' && item.length === text) budget.spend(textSteps(text));
      if (item === needle || (Number.isNaN(item) && Number.isNaN(needle))) return true;
    }
    return false;
  }
  if (typeof haystack !== 'string') throw INVALID_ARGUMENTS;
  const pattern = textWithin(needle, budget, haystack.length);
  if (pattern === null) return false;
  // One character is a memchr; longer needles can cost several comparisons per haystack character.
  const scan =
    pattern.length > 1
      ? Math.ceil(haystack.length / STEP_COSTS.searchCharsPerStep)
      : textSteps(haystack.length);
  budget.spend(scan + textSteps(pattern.length));
  return haystack.includes(pattern);
}

/** `in`: `[needle, haystack]`; a missing or falsy haystack holds nothing. */
const compileIn: OperatorCompiler = (argument, compile) => {
  if (Array.isArray(argument)) {
    const needle = compile(argument[0]);
    const haystack: Node = argument.length > 1 ? compile(argument[1]) : () => undefined;
    return (scope) => {
      scope.budget.spend(1);
      const where = haystack(scope);
      return includes(where, needle(scope), scope.budget);
    };
  }
  const args = compileArgs(argument, compile);
  return (scope) => {
    scope.budget.spend(1);
    const [needle, haystack] = args(scope);
    return includes(haystack, needle, scope.budget);
  };
};

/** `merge`: the arguments, arrays flattened one level, at most {@link BUILD_LIMITS} items. */
const merge: OperatorCompiler = (argument, compile) => {
  const args = compileArgs(argument, compile);
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1);
    const values = args(scope);
    let total = 0;
    for (const value of values) total += Array.isArray(value) ? value.length : 1;
    budget.spend(STEP_COSTS.allocation + values.length + total * STEP_COSTS.mergedItem);
    if (total > BUILD_LIMITS.maxArrayLength) throw INVALID_ARGUMENTS;
    const result: unknown[] = [];
    for (const value of values) {
      if (Array.isArray(value)) for (const item of value) result.push(item);
      else result.push(value);
    }
    return result;
  };
};

/** `cat substr in merge`. */
export const TEXT_OPERATORS: Record<string, OperatorCompiler> = {
  cat,
  substr,
  in: compileIn,
  merge,
};
