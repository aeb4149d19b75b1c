import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { CanonryError, type JsonObject, type JsonValue } from '../core/index.js';
import { EVALUATION_BUDGET, StepBudget } from './budget.js';
import { dialectIssues, MAX_SCHEMA_ISSUES, newAjv } from './constraints-ajv.js';
import { describeThrown, type ProtocolIssue, pointer } from './issues.js';
import {
  ajvUnsafeFeatures,
  boundSteps,
  type Coefficients,
  compileSchema,
  measure,
  SchemaError,
  type Validator,
} from './json-schema/index.js';
import type { ConstraintError } from './verdict.js';

export { JSON_SCHEMA_DIALECT } from './constraints-ajv.js';

/** Options for {@link compileConstraints}. */
export interface ConstraintOptions {
  /** Validate `format` as an assertion (ajv-formats) instead of an annotation; off by default. */
  formatAssertion?: boolean;
  /** Extra schemas by URI that `$ref` may reach (tests); nothing is ever fetched. */
  remotes?: Record<string, JsonValue>;
}

/** At most this many errors are returned by one check (they go to the private audit record). */
export const MAX_CONSTRAINT_ERRORS = 8;

/** The result of checking one value against compiled constraints. */
export interface ConstraintResult {
  valid: boolean;
  /** Where the value failed, at most {@link MAX_CONSTRAINT_ERRORS}. */
  errors: ConstraintError[];
  /** Errors found beyond those returned. */
  omittedErrors?: number;
  /** The check spent its whole step budget before deciding: invalid, deterministically. */
  exhausted?: boolean;
  /** The engine that decided this value. */
  engine: ConstraintEngine;
}

/** Which validator a check runs on: Ajv's generated code, or canonry's own interpreter. */
export type ConstraintEngine = 'ajv' | 'canonry';

/**
 * A compiled constraints check; expects a JSON value. Charges `budget` (by default a fresh one of
 * EVALUATION_BUDGET.constraints steps) and reports `exhausted` when it runs out.
 */
export type ConstraintCheck = ((value: unknown, budget?: StepBudget) => ConstraintResult) & {
  /**
   * 'ajv' when values may run on Ajv (whenever a bound proves the interpreter could not exhaust
   * the budget on them), 'canonry' when they always run on the interpreter (see
   * {@link compileConstraints}). Reading it compiles Ajv if that is still to be done.
   */
  readonly engine: ConstraintEngine;
};

/** Bounds on a protocol's constraints, so compiling and validating stay far from the stack limit. */
export const CONSTRAINT_LIMITS = Object.freeze({
  /** Nested objects and arrays along any path of the schema. */
  maxDepth: 64,
  /** JSON values (containers and scalars) in the schema. */
  maxNodes: 4_096,
  /** Schemas with more values never run on Ajv, so its code generation stays cheap. */
  maxAjvNodes: 500,
});

/**
 * Registration policy for a protocol's constraints, beyond validity: the bounds above, so compiling
 * and validating stay far from the stack limit whichever engine runs the schema.
 */
export function constraintPolicyIssues(schema: JsonValue, path = ''): ProtocolIssue[] {
  const issues: ProtocolIssue[] = [];
  let nodes = 0;
  const visit = (node: JsonValue, at: string, depth: number): void => {
    if (issues.length >= MAX_SCHEMA_ISSUES || nodes > CONSTRAINT_LIMITS.maxNodes) return;
    if (++nodes > CONSTRAINT_LIMITS.maxNodes) {
      issues.push({
        path,
        message: `the schema has more than ${CONSTRAINT_LIMITS.maxNodes} nodes`,
      });
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (depth > CONSTRAINT_LIMITS.maxDepth) {
      issues.push({
        path: at,
        message: `the schema nests deeper than ${CONSTRAINT_LIMITS.maxDepth} levels`,
      });
      return;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) visit(node[i] as JsonValue, pointer(at, i), depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) visit(value, pointer(at, key), depth + 1);
  };
  visit(schema, path, 1);
  return issues;
}

function invalid(issues: ProtocolIssue[]): CanonryError {
  return new CanonryError('INVALID_PROTOCOL', `invalid constraints: ${issues[0]?.message}`, {
    issues,
  });
}

/** JSON values in a document (to keep Ajv's code generation to small schemas). */
function nodeCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    count++;
    if (node !== null && typeof node === 'object') pending.push(...Object.values(node));
  }
  return count;
}

/**
 * Whether a schema may run on Ajv: no feature Ajv 8 evaluates incorrectly in it or in any document
 * (remote or built-in meta-schema) it reaches, small enough to generate code for cheaply, and with a
 * per-location cost bound. Depends only on the schema and its remotes.
 */
function ajvEligible(schema: JsonObject | boolean, interpreter: Validator): boolean {
  if (ajvUnsafeFeatures(schema).length > 0) return false;
  for (const document of interpreter.documents)
    if (ajvUnsafeFeatures(document.schema, false).length > 0) return false;
  let nodes = nodeCount(schema);
  for (const document of interpreter.documents) nodes += nodeCount(document.schema);
  return nodes <= CONSTRAINT_LIMITS.maxAjvNodes && interpreter.perLocationBound() !== null;
}

function ajvErrors(validate: ValidateFunction): Pick<ConstraintResult, 'errors' | 'omittedErrors'> {
  const all = validate.errors ?? [];
  const errors = all
    .slice(0, MAX_CONSTRAINT_ERRORS)
    .map(({ instancePath, schemaPath, keyword }) => ({ instancePath, schemaPath, keyword }));
  return all.length > errors.length
    ? { errors, omittedErrors: all.length - errors.length }
    : { errors };
}

/**
 * Compiles a JSON Schema 2020-12 into a check. Throws INVALID_PROTOCOL (details.issues, pointers
 * relative to the schema) when the schema is invalid, declares another dialect, has a `$ref` nothing
 * registered can satisfy, a pattern the linear-time engine cannot run, applies more schemas at one
 * instance location than the evaluation budget allows, or is asynchronous.
 *
 * Two engines. canonry's interpreter (src/kernel/json-schema) compiles every schema first, which
 * checks it, finds the documents it reaches and bounds its cost; it charges a step budget as it
 * evaluates. Ajv (a fresh instance per schema, compiled on first use) has no budget: a value runs on
 * it only when the schema is eligible (no feature Ajv gets wrong: `$dynamicRef`, `unevaluated*`,
 * `$vocabulary`, an empty `enum`, `__proto__`…; at most CONSTRAINT_LIMITS.maxAjvNodes values; Ajv
 * compiles it) and the static bound of the schema times the value's measures proves the interpreter
 * could not exhaust what is left of the budget. Both give the same answers on eligible schemas (a
 * differential test keeps it so), so the choice, which depends only on (schema, value), never
 * changes a verdict.
 */
export function compileConstraints(
  input: JsonObject | boolean,
  options: ConstraintOptions = {},
): ConstraintCheck {
  const formatAssertion = options.formatAssertion === true;
  // One private copy for both engines: Ajv compiles later, on first use, and must see what was checked.
  let schema: JsonObject | boolean;
  let remotes: Record<string, JsonValue>;
  try {
    schema = JSON.parse(JSON.stringify(input));
    remotes = JSON.parse(JSON.stringify(options.remotes ?? {}));
  } catch (error) {
    throw invalid([{ path: '', message: `the schema is not JSON: ${describeThrown(error)}` }]);
  }
  const ajv = newAjv(formatAssertion, remotes);
  if (typeof schema === 'object') {
    const issues = dialectIssues(ajv, schema, remotes);
    if (issues.length > 0) throw invalid(issues);
    // An `$async` schema compiles (on Ajv) to a function returning a Promise, which reads as "valid".
    if (Object.hasOwn(schema, '$async') && schema.$async === true) throw asyncRefused();
  }
  const limit = EVALUATION_BUDGET.constraints;
  let interpreter: Validator;
  try {
    interpreter = compileSchema(schema, {
      formatAssertion,
      remotes,
      fanOutLimit: limit,
      owned: true,
    });
  } catch (error) {
    if (error instanceof SchemaError) throw invalid([{ path: error.path, message: error.message }]);
    throw invalid([{ path: '', message: describeThrown(error) }]);
  }
  const { steps, path } = interpreter.fanOut;
  if (steps > limit) {
    const at = path.startsWith('#') ? path.slice(1) : '';
    const message = `the schema at ${path} applies ${steps} steps of schemas at one instance location through allOf/anyOf/oneOf/not/if/$ref (counted with repeats), more than the evaluation budget of ${limit}`;
    throw invalid([{ path: at, message }]);
  }
  const eligible = ajvEligible(schema, interpreter);
  // `true` accepts everything without looking (no measuring pass over a large artifact either);
  // either engine would say so, and it is reported as the routing would have it.
  if (schema === true) {
    const engine: ConstraintEngine = eligible ? 'ajv' : 'canonry';
    const accepted: ConstraintResult = Object.freeze({ valid: true, errors: [], engine });
    return withEngine(() => accepted, engine);
  }
  return eligible
    ? routedCheck(ajv, schema, interpreter, interpreter.perLocationBound()!)
    : withEngine(canonryRun(interpreter), 'canonry');
}

function canonryRun(
  interpreter: Validator,
): (value: unknown, budget: StepBudget) => ConstraintResult {
  return (value, budget) => {
    const { valid, errors, exhausted } = interpreter.validate(value, budget);
    return exhausted === true
      ? { valid, errors, exhausted, engine: 'canonry' }
      : { valid, errors, engine: 'canonry' };
  };
}

function withEngine(
  run: (value: unknown, budget: StepBudget) => ConstraintResult,
  engine: ConstraintEngine | (() => ConstraintEngine),
): ConstraintCheck {
  const check = (value: unknown, budget?: StepBudget) =>
    run(value, budget ?? new StepBudget(EVALUATION_BUDGET.constraints));
  return Object.defineProperty(check, 'engine', {
    get: typeof engine === 'function' ? engine : () => engine,
    enumerable: true,
  }) as ConstraintCheck;
}

const EXHAUSTED: ConstraintResult = Object.freeze({
  valid: false,
  errors: [Object.freeze({ instancePath: '', schemaPath: '#', keyword: 'budget' })],
  exhausted: true,
  engine: 'canonry',
}) as ConstraintResult;

/** Values measured at most before a check gives up proving Ajv safe and runs the interpreter. */
const MEASURE_VALUES = 4_096;

/** A check that sends each value to Ajv when the bound allows, to the interpreter otherwise. */
function routedCheck(
  ajv: Ajv2020,
  schema: JsonObject | boolean,
  interpreter: Validator,
  perLocation: Coefficients,
): ConstraintCheck {
  let compiled: ValidateFunction | null | undefined;
  const ajvValidate = (): ValidateFunction | null => {
    if (compiled !== undefined) return compiled;
    try {
      compiled = ajv.compile(schema);
    } catch {
      // A schema the interpreter accepts but Ajv cannot compile (it overflows the stack on some
      // relative-URI and URN $ref layouts): the interpreter runs it, always.
      compiled = null;
    }
    return compiled;
  };
  const interpret = canonryRun(interpreter);
  return withEngine(
    (value, budget) => {
      const allowance = budget.limit - budget.used;
      // Ajv pays off on small artifacts; a large one goes to the interpreter (budgeted, it walks
      // only where the schema leads) instead of being walked whole first to prove a bound.
      const measures = measure(value, perLocation, allowance, MEASURE_VALUES);
      if (!budget.charge(measures.work)) return EXHAUSTED;
      const proven =
        measures.complete &&
        !measures.callableKeys &&
        boundSteps(perLocation, measures.totals, true) <= budget.limit - budget.used;
      const validate = proven ? ajvValidate() : null;
      if (validate === null) return interpret(value, budget);
      let valid: unknown;
      try {
        valid = validate(value);
      } catch {
        // Deep recursion can overflow Ajv's generated code: the interpreter, bounded, decides.
        return interpret(value, budget);
      }
      return valid === true
        ? { valid: true, errors: [], engine: 'ajv' }
        : { valid: false, ...ajvErrors(validate), engine: 'ajv' };
    },
    () => (ajvValidate() === null ? 'canonry' : 'ajv'),
  );
}

function asyncRefused(): CanonryError {
  return invalid([{ path: '/$async', message: 'asynchronous schemas are not supported' }]);
}
