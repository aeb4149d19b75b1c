import { EVALUATION_BUDGET, isBudgetExhausted, StepBudget } from '../budget.js';
import { type FanOut, inPlaceCosts, perLocationBound } from './bound.js';
import { Compiler } from './compile.js';
import { type Coefficients, ONE } from './cost.js';
import { assertNoInPlaceCycle } from './cycles.js';
import { evaluate, reported } from './evaluate.js';
import { DIALECT_2020_12 } from './meta.js';
import { Registry } from './resources.js';
import { SchemaError } from './schema-error.js';
import type {
  DocumentRef,
  Run,
  Scope,
  ValidationResult,
  Validator,
  ValidatorOptions,
} from './types.js';
import { isAbsoluteUri, splitFragment } from './uri.js';

export type { FanOut } from './bound.js';
export type { Coefficients } from './cost.js';
export { MAX_EVALUATION_DEPTH } from './evaluate.js';
export { ajvUnsafeFeatures } from './features.js';
export { DIALECT_2020_12 } from './meta.js';
export { type LinearPattern, linearPattern, PATTERN_LIMITS, PatternRefused } from './regex.js';
export { SchemaError } from './schema-error.js';
export { boundSteps, type Measures, measure } from './stats.js';
export type {
  DocumentRef,
  ValidationError,
  ValidationResult,
  Validator,
  ValidatorOptions,
} from './types.js';

/** The base URI of a root schema without an absolute `$id`. */
export const DEFAULT_BASE_URI = 'canonry:/root';

/**
 * The schema node whose in-place fan-out (see bound.ts) passes `limit` with the fewest steps, that is
 * the innermost one to blame; otherwise the costliest location.
 */
function fanOut(here: ReturnType<typeof inPlaceCosts>, limit: number): FanOut {
  let worst: FanOut = { steps: 0, path: '' };
  let blamed: FanOut | undefined;
  for (const [node, cost] of here) {
    const steps = cost[ONE]!;
    if (steps > worst.steps) worst = { steps, path: node.path };
    if (steps > limit && (blamed === undefined || steps < blamed.steps))
      blamed = { steps, path: node.path };
  }
  return blamed ?? worst;
}

/** A private copy, so later changes by the caller cannot reach the compiled schema. */
function copyJson(value: unknown, what: string): unknown {
  try {
    return JSON.parse(JSON.stringify(value) ?? 'undefined');
  } catch {
    throw new SchemaError('', `${what} is not JSON`);
  }
}

/**
 * Compiles a JSON Schema 2020-12 (with `$ref`s into `options.remotes` and the built-in meta-schemas)
 * into a {@link Validator}. Throws SchemaError for anything it cannot give a meaning to: unresolvable
 * references, invalid patterns, malformed keyword values, unknown `$schema`, `$ref` cycles.
 */
export function compileSchema(schema: unknown, options: ValidatorOptions = {}): Validator {
  const registry = new Registry();
  const own = options.owned === true;
  const root = own ? schema : copyJson(schema, 'the schema');
  const rootResource = registry.addDocument(root, DEFAULT_BASE_URI, true);
  for (const [uri, remote] of Object.entries(options.remotes ?? {})) {
    if (!isAbsoluteUri(uri)) throw new SchemaError('', `remote URI ${uri} is not absolute`);
    const document = own ? remote : copyJson(remote, `remote ${uri}`);
    registry.addDocument(document, splitFragment(uri)[0], false);
  }
  const compiler = new Compiler(registry, options.formatAssertion === true);
  const info = (typeof root === 'object' && root !== null && registry.info(root)) || {
    base: rootResource.uri,
    resource: rootResource,
    pointer: '',
  };
  const compiled = compiler.node(root, info);
  compiler.drain();
  assertNoInPlaceCycle(compiler.nodes());
  const here = inPlaceCosts(compiler.nodes());
  let bound: Coefficients | null | undefined;

  const documents = new Map<string, DocumentRef>();
  // The standard meta-schema as `$schema` only names the default vocabularies: not a dependency.
  const metas = [...compiler.metaSchemas].filter((meta) => meta.uri !== DIALECT_2020_12);
  for (const { document } of [...compiler.resources, ...metas]) {
    if (!document.isRoot) documents.set(document.uri, { uri: document.uri, schema: document.root });
  }
  const scope: Scope = { resource: info.resource, outer: null };
  return {
    documents: Object.freeze([...documents.values()]),
    fanOut: fanOut(here, options.fanOutLimit ?? Infinity),
    perLocationBound(): Coefficients | null {
      bound ??= perLocationBound(compiled, here);
      return bound;
    },
    validate(value: unknown, budget?: StepBudget): ValidationResult {
      const run: Run = {
        budget: budget ?? new StepBudget(EVALUATION_BUDGET.constraints),
        error: null,
        depth: 0,
        exhausted: null,
      };
      let valid: boolean;
      try {
        valid = evaluate(compiled, run, value, null, scope, null);
      } catch (error) {
        if (isBudgetExhausted(error)) {
          return {
            valid: false,
            errors: [{ instancePath: '', schemaPath: '#', keyword: 'budget' }],
            exhausted: true,
          };
        }
        // Not reachable for JSON values; a non-JSON value (a throwing getter…) fails closed.
        return {
          valid: false,
          errors: [{ instancePath: '', schemaPath: '#', keyword: 'exception' }],
        };
      }
      if (run.exhausted !== null) return { valid: false, errors: [reported(run.exhausted)] };
      if (valid) return { valid: true, errors: [] };
      return {
        valid: false,
        errors: [
          run.error === null
            ? { instancePath: '', schemaPath: '#', keyword: 'false schema' }
            : reported(run.error),
        ],
      };
    },
  };
}
