import type { StepBudget } from '../budget.js';
import { type Args, compileArgs, isScalar } from './args.js';
import { plus, toPrimitive } from './coerce.js';
import { STEP_COSTS, textSteps } from './cost.js';
import { INVALID_ARGUMENTS } from './errors.js';
import { ABSENT, follow, member, splitPath } from './path.js';
import type { Node, OperatorCompiler, Scope } from './types.js';

/** A `val` scope climb further than this can never land on a scope (rules nest at most 32 deep). */
const MAX_SCOPE_CLIMB = 64;

/** Segments of a dynamic path key, charged for the split and the walk. */
function segmentsOf(key: string | number, budget: StepBudget): string[] {
  const text = String(key);
  budget.spend(textSteps(text.length));
  const segments = splitPath(text);
  budget.spend(segments.length * STEP_COSTS.dynamicKey);
  return segments;
}

/** `var`: a dotted path into the current data, with an optional default for a missing value. */
function varLookup(args: readonly unknown[], scope: Scope): unknown {
  const key = args[0];
  if (key === undefined || key === null || key === '') return scope.data;
  const fallback = args[1];
  const notFound = fallback === undefined ? null : fallback;
  if (typeof key !== 'string' && typeof key !== 'number') return notFound;
  const found = follow(scope.data, segmentsOf(key, scope.budget));
  return found === ABSENT ? notFound : found;
}

function compileVar(argument: unknown, compile: (node: unknown) => Node): Node {
  const list = Array.isArray(argument);
  const key = list ? (argument as unknown[])[0] : argument;
  const fallback = list ? (argument as unknown[])[1] : undefined;
  const literal = (!list || (argument as unknown[]).length <= 2) && isScalar(fallback ?? null);
  if (literal && (key === undefined || key === null || key === '')) {
    return (scope) => {
      scope.budget.spend(1);
      return scope.data;
    };
  }
  if (literal && (typeof key === 'string' || typeof key === 'number')) {
    const segments = splitPath(String(key));
    const steps = 1 + segments.length;
    const notFound = fallback ?? null;
    return (scope) => {
      scope.budget.spend(steps);
      const found = follow(scope.data, segments);
      return found === ABSENT ? notFound : found;
    };
  }
  const args = compileArgs(argument, compile);
  return (scope) => {
    scope.budget.spend(1);
    return varLookup(args(scope), scope);
  };
}

/** The scope `levels` climbs up: even climbs land on an enclosing scope's data, odd on its iteration. */
function climb(scope: Scope, levels: number): unknown {
  let current: Scope | null = scope;
  for (let i = 0; i + 1 < levels && current !== null; i += 2) current = current.parent;
  if (current === null) return ABSENT;
  if (levels % 2 === 0) return current.data;
  current.budget.spend(STEP_COSTS.allocation);
  const meta = current.meta;
  return meta === undefined ? ABSENT : meta;
}

/** `val`/`exists`: keys one per step (no dotted paths), optionally after a `[n]` scope climb. */
function lookup(args: readonly unknown[], scope: Scope): unknown {
  const budget = scope.budget;
  let keys: unknown = args;
  if (args.length === 1 && !Array.isArray(args[0])) keys = args[0];
  if (keys === null) return scope.data;
  if (!Array.isArray(keys)) {
    if (typeof keys === 'string') budget.spend(textSteps(keys.length));
    return member(scope.data, keys);
  }
  budget.spend(keys.length * STEP_COSTS.dynamicKey);
  let result: unknown = scope.data;
  let start = 0;
  const first = keys[0];
  if (Array.isArray(first) && first.length === 1) {
    start = 1;
    const levels = Math.ceil(Math.abs(plus(toPrimitive(first[0], budget), budget)));
    if (levels > MAX_SCOPE_CLIMB) return ABSENT;
    if (levels > 0) {
      budget.spend(levels);
      result = climb(scope, levels);
    }
  }
  for (let i = start; i < keys.length; i++) {
    const key = keys[i];
    if (key === null) continue;
    if (result === null || result === undefined || result === ABSENT) return ABSENT;
    if (typeof key === 'string') budget.spend(textSteps(key.length));
    result = member(result, key);
  }
  return result === undefined ? ABSENT : result;
}

function compileLookup(found: (value: unknown) => unknown): OperatorCompiler {
  return (argument, compile) => {
    if (isLiteralKeys(argument)) {
      // Literal keys (and climb): the argument list is the same every time, so it is built once.
      const args = Array.isArray(argument) ? argument : [argument];
      return (scope) => {
        scope.budget.spend(1);
        return found(lookup(args, scope));
      };
    }
    const args: Args = compileArgs(argument, compile);
    return (scope) => {
      scope.budget.spend(1);
      return found(lookup(args(scope), scope));
    };
  };
}

/** True for `val`/`exists` arguments with no operation in them (scalars, and a `[n]` climb). */
function isLiteralKeys(argument: unknown): boolean {
  if (!Array.isArray(argument)) return isScalar(argument);
  return argument.every(
    (item, i) =>
      isScalar(item) || (i === 0 && Array.isArray(item) && item.length === 1 && isScalar(item[0])),
  );
}

/** The keys among `keys` whose dotted path is missing from `context` (or lands on a falsy step). */
function missingKeys(keys: readonly unknown[], context: unknown, budget: StepBudget): unknown[] {
  budget.spend(STEP_COSTS.allocation + keys.length * STEP_COSTS.missingKey);
  const missing: unknown[] = [];
  for (const key of keys) {
    if (typeof key !== 'string' && typeof key !== 'number') {
      missing.push(key);
      continue;
    }
    const text = String(key);
    if (!text.includes('.') && !text.includes('\\') && text !== '') {
      // One segment (the common case): no split.
      budget.spend(textSteps(text.length));
      const found = context ? member(context, text) : ABSENT;
      if (found === ABSENT || found === undefined) missing.push(key);
      continue;
    }
    let current: unknown = context;
    for (const segment of segmentsOf(text, budget)) {
      current = current ? member(current, segment) : ABSENT;
      if (current === ABSENT || current === undefined) {
        missing.push(key);
        break;
      }
    }
  }
  return missing;
}

/** `var`, `val`, `exists`, `missing`, `missing_some`: reads of the data, own members only. */
export const DATA_OPERATORS: Record<string, OperatorCompiler> = {
  var: compileVar,
  val: compileLookup((found) => (found === ABSENT ? null : found)),
  exists: compileLookup((found) => found !== ABSENT),
  missing: (argument, compile) => {
    const args = compileArgs(argument, compile);
    return (scope) => {
      scope.budget.spend(1);
      return missingKeys(args(scope), scope.data, scope.budget);
    };
  },
  missing_some: (argument, compile) => {
    const args = compileArgs(argument, compile);
    return (scope) => {
      scope.budget.spend(1);
      const [needed, keys] = args(scope);
      if (!Array.isArray(keys)) throw INVALID_ARGUMENTS;
      const missing = missingKeys(keys, scope.data, scope.budget);
      return keys.length - missing.length >= plus(toPrimitive(needed, scope.budget), scope.budget)
        ? []
        : missing;
    };
  },
};
