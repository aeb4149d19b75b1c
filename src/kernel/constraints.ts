import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { CanonryError, type JsonObject, type JsonValue } from '../core/index.js';
import type { StepBudget } from './budget.js';
import { describeThrown, type ProtocolIssue, pointer } from './issues.js';
import {
  ajvUnsafeFeatures,
  compileSchema,
  SchemaError,
  type Validator,
} from './json-schema/index.js';
import type { ConstraintError } from './verdict.js';

/** Options for {@link compileConstraints}. */
export interface ConstraintOptions {
  /** Validate `format` as an assertion (ajv-formats) instead of an annotation; off by default. */
  formatAssertion?: boolean;
  /** Extra schemas by URI that `$ref` may reach (tests); nothing is ever fetched. */
  remotes?: Record<string, JsonValue>;
}

/** The result of checking one value against compiled constraints. */
export interface ConstraintResult {
  valid: boolean;
  errors: ConstraintError[];
  /** The check spent its whole step budget before deciding: invalid, deterministically. */
  exhausted?: boolean;
}

/** Which validator a compiled check runs on: Ajv's generated code, or canonry's own interpreter. */
export type ConstraintEngine = 'ajv' | 'canonry';

/** A compiled constraints check; expects a JSON value. */
export type ConstraintCheck = ((value: unknown, budget?: StepBudget) => ConstraintResult) & {
  /** The engine chosen for this schema (see {@link compileConstraints}). */
  readonly engine: ConstraintEngine;
};

/** The only dialect canonry accepts in `$schema`. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** At most this many meta-schema errors are reported for one schema. */
const MAX_SCHEMA_ISSUES = 10;

function ajvOptions(formatAssertion: boolean): Options {
  return {
    strict: false, // the standard ignores unknown keywords; strict mode would reject them
    logger: false,
    allErrors: false,
    ownProperties: true, // `required: ["toString"]` must not be satisfied by Object.prototype
    validateFormats: formatAssertion,
    validateSchema: false, // checked once against a shared, pre-compiled meta-schema instead
  };
}

let metaCheck: ValidateFunction | undefined;

function metaSchemaIssues(schema: JsonObject): ProtocolIssue[] {
  metaCheck ??= new Ajv2020({
    strict: false,
    logger: false,
    allErrors: true,
    validateFormats: false,
  }).getSchema(JSON_SCHEMA_DIALECT);
  if (metaCheck === undefined)
    throw new CanonryError('INTERNAL', 'the 2020-12 meta-schema is missing');
  if (metaCheck(schema) === true) return [];
  return toIssues(metaCheck.errors);
}

function toIssues(errors: ErrorObject[] | null | undefined): ProtocolIssue[] {
  const seen = new Set<string>();
  const issues: ProtocolIssue[] = [];
  for (const error of errors ?? []) {
    const issue = {
      path: error.instancePath,
      message: `${error.keyword}: ${error.message ?? 'invalid'}`,
    };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (issues.length === MAX_SCHEMA_ISSUES) break;
  }
  return issues.length > 0 ? issues : [{ path: '', message: 'not a valid JSON Schema 2020-12' }];
}

function dialectIssues(ajv: Ajv2020, schema: JsonObject, remotes: object): ProtocolIssue[] {
  const declared = schema.$schema;
  if (
    declared === undefined ||
    declared === JSON_SCHEMA_DIALECT ||
    declared === `${JSON_SCHEMA_DIALECT}#`
  ) {
    return metaSchemaIssues(schema);
  }
  if (typeof declared === 'string' && Object.hasOwn(remotes, declared)) {
    try {
      return ajv.validateSchema(schema) === true ? [] : toIssues(ajv.errors);
    } catch (error) {
      return [{ path: '/$schema', message: describeThrown(error) }];
    }
  }
  return [
    { path: '/$schema', message: `only JSON Schema 2020-12 (${JSON_SCHEMA_DIALECT}) is supported` },
  ];
}

/** Bounds on a protocol's constraints, so compiling and validating stay far from the stack limit. */
export const CONSTRAINT_LIMITS = Object.freeze({
  /** Nested objects and arrays along any path of the schema. */
  maxDepth: 64,
  /** JSON values (containers and scalars) in the schema. */
  maxNodes: 10_000,
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

/**
 * Why a schema must not run on Ajv: the features Ajv 8 evaluates incorrectly, in the schema or in any
 * document (remote or built-in meta-schema) it reaches. Depends only on the schema and its remotes.
 */
function canonryReasons(schema: JsonObject | boolean, interpreter: Validator): string[] {
  const found = new Set(ajvUnsafeFeatures(schema));
  for (const document of interpreter.documents) {
    for (const feature of ajvUnsafeFeatures(document.schema, false))
      found.add(`${feature} (${document.uri})`);
  }
  return [...found];
}

function withEngine(
  check: (value: unknown) => ConstraintResult,
  engine: ConstraintEngine,
): ConstraintCheck {
  return Object.defineProperty(check, 'engine', {
    value: engine,
    enumerable: true,
  }) as ConstraintCheck;
}

function ajvCheck(validate: ValidateFunction, interpreter: Validator): ConstraintCheck {
  return withEngine((value) => {
    let valid: unknown;
    try {
      valid = validate(value);
    } catch {
      // Ajv's deep equality (const, enum, uniqueItems) calls an own `toString` or `valueOf` key of
      // the value, and deep recursion can overflow: the interpreter, bounded, decides instead.
      return interpreter.validate(value);
    }
    if (valid === true) return { valid: true, errors: [] };
    const errors = (validate.errors ?? []).map(({ instancePath, schemaPath, keyword }) => ({
      instancePath,
      schemaPath,
      keyword,
    }));
    return { valid: false, errors };
  }, 'ajv');
}

function canonryCheck(interpreter: Validator): ConstraintCheck {
  return withEngine((value) => interpreter.validate(value), 'canonry');
}

/**
 * Compiles a JSON Schema 2020-12 into a check. Throws INVALID_PROTOCOL (details.issues, pointers
 * relative to the schema) when the schema is invalid, declares another dialect, has a `$ref` nothing
 * registered can satisfy, or is asynchronous.
 *
 * Two engines: canonry's interpreter (src/kernel/json-schema) compiles every schema first, which
 * checks it and finds the documents it reaches; the check then runs on Ajv (a fresh instance per
 * schema, so two schemas sharing an `$id` never collide) unless the schema or a document it reaches
 * uses a feature Ajv gets wrong (`$dynamicRef`, `unevaluated*`, `$vocabulary`, an empty `enum`,
 * `__proto__` as a property name…), or Ajv refuses to compile it. The choice depends only on the
 * schema and its remotes, and is exposed as `engine` on the returned check.
 */
export function compileConstraints(
  schema: JsonObject | boolean,
  options: ConstraintOptions = {},
): ConstraintCheck {
  const formatAssertion = options.formatAssertion === true;
  const remotes = options.remotes ?? {};
  const ajv = new Ajv2020(ajvOptions(formatAssertion));
  if (formatAssertion) ajvFormats.default(ajv);
  for (const [uri, remote] of Object.entries(remotes)) ajv.addSchema(remote as object, uri);
  if (typeof schema === 'object') {
    const issues = dialectIssues(ajv, schema, remotes);
    if (issues.length > 0) throw invalid(issues);
    // An `$async` schema compiles (on Ajv) to a function returning a Promise, which reads as "valid".
    if (Object.hasOwn(schema, '$async') && schema.$async === true) throw asyncRefused();
  }
  let interpreter: Validator;
  try {
    interpreter = compileSchema(schema, { formatAssertion, remotes });
  } catch (error) {
    if (error instanceof SchemaError) throw invalid([{ path: error.path, message: error.message }]);
    throw invalid([{ path: '', message: describeThrown(error) }]);
  }
  if (canonryReasons(schema, interpreter).length > 0) return canonryCheck(interpreter);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch {
    // A schema the interpreter accepts but Ajv cannot compile (it overflows the stack on some
    // relative-URI and URN $ref layouts): the interpreter runs it.
    return canonryCheck(interpreter);
  }
  if ((validate as { $async?: unknown }).$async !== undefined) throw asyncRefused();
  return ajvCheck(validate, interpreter);
}

function asyncRefused(): CanonryError {
  return invalid([{ path: '/$async', message: 'asynchronous schemas are not supported' }]);
}
