import { Constants, defaultMethods, LogicEngine } from 'json-logic-engine';
import { CanonryError, type JsonValue } from '../core/index.js';
import type { StepBudget } from './budget.js';
import { ALLOWED_OPERATORS, RULE_LIMITS, ruleIssues } from './rule-check.js';
import { dataOperators, INVALID_ARGUMENTS } from './rule-data.js';

export { ALLOWED_OPERATORS, EXCLUDED_OPERATORS, RULE_LIMITS, ruleIssues } from './rule-check.js';

/** Internal operator that asserts its argument is an array; unreachable from rules (not allowed). */
const ARRAY_ONLY = 'canonry:array';

type Method = (args: unknown, context: unknown, above: unknown, engine: unknown) => unknown;
type Compile = (data: unknown, state: unknown) => unknown;
type MethodObject = Record<string | symbol, unknown> & { method: Method; compile: Compile };

/** JsonLogic truthiness: `[]` is false; everything else as in JavaScript, so `{}` is true. */
export function isTruthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

/** all/some/none over a missing or non-array operand are errors (the engine read `all(null)` as true). */
function arrayOnlyOperand(name: string): MethodObject {
  const original = defaultMethods[name as keyof typeof defaultMethods] as unknown as MethodObject;
  const guard = (input: unknown) =>
    Array.isArray(input) && input.length > 0
      ? [{ [ARRAY_ONLY]: [input[0]] }, ...input.slice(1)]
      : input;
  return {
    ...original,
    method: (input, context, above, engine) =>
      original.method(guard(input), context, above, engine),
    compile: (data, state) => original.compile(guard(data), state),
  };
}

function boundedLength<T extends { length: number }>(value: T, limit: number): T {
  if (value.length > limit) throw INVALID_ARGUMENTS;
  return value;
}

function buildEngine(): LogicEngine {
  const methods: Record<string, unknown> = Object.create(null);
  for (const name of ALLOWED_OPERATORS)
    methods[name] = defaultMethods[name as keyof typeof defaultMethods];
  const cat = defaultMethods.cat.method as (args: unknown) => string;
  const merge = defaultMethods.merge as (args: unknown) => unknown[];
  Object.assign(methods, dataOperators, {
    all: arrayOnlyOperand('all'),
    some: arrayOnlyOperand('some'),
    none: arrayOnlyOperand('none'),
    // Method form without `compile`, so the length bound is applied on every call.
    cat: { method: (args: unknown) => boundedLength(cat(args), RULE_LIMITS.maxStringLength) },
    merge: { method: (args: unknown) => boundedLength(merge(args), RULE_LIMITS.maxArrayLength) },
    [ARRAY_ONLY]: {
      method: (args: unknown) => {
        const value = Array.isArray(args) ? args[0] : args;
        if (!Array.isArray(value)) throw INVALID_ARGUMENTS;
        return value;
      },
      deterministic: true,
    },
  });
  const engine = new LogicEngine(methods, {
    // The interpreter's optimiser caches plans and switches itself off after 500 misses: shared
    // state that could make two evaluations of the same (rule, data) take different paths.
    disableInterpretedOptimization: true,
    maxDepth: 0, // compiled `reduce` enforces 0 whatever is set; keep the interpreter identical
    maxArrayLength: RULE_LIMITS.maxArrayLength,
    maxStringLength: RULE_LIMITS.maxStringLength,
  });
  // `{ ...methods }` in the constructor restores Object.prototype; "constructor" must not resolve.
  Object.setPrototypeOf(engine.methods, null);
  engine.truthy = isTruthy;
  return engine;
}

const engine = buildEngine();

/**
 * Compiles a JsonLogic condition through the closed-operator engine. Throws INVALID_PROTOCOL when the
 * condition is outside the operator set or the bounds. A condition whose constant part already fails
 * while compiling (e.g. `{"/":[1,0]}`) compiles to a function that throws that failure when called.
 */
export function compileRule(condition: JsonValue): (data: unknown, budget?: StepBudget) => unknown {
  const issues = ruleIssues(condition);
  if (issues.length > 0) {
    throw new CanonryError('INVALID_PROTOCOL', `invalid rule: ${issues[0]?.message}`, { issues });
  }
  let built: (data: unknown) => unknown;
  try {
    built = engine.build(condition) as (data: unknown) => unknown;
  } catch (error) {
    return () => {
      throw error;
    };
  }
  // An operator the engine thinks is asynchronous would make the rule return a Promise (truthy).
  if ((built as unknown as Record<symbol, unknown>)[Constants.Sync] !== true) {
    throw new CanonryError('INTERNAL', 'a rule compiled to an asynchronous function');
  }
  return built;
}
