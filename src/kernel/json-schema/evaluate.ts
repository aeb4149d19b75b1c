import { Marks } from './annotations.js';
import { NODE_STEPS } from './cost.js';
import type { Compiled, Failure, Location, Run, Scope, ValidationError } from './types.js';
import { appendPointer } from './uri.js';

/**
 * Nested schema evaluations allowed in one run. Deeper recursion (a recursive schema over a very deep
 * instance, or a dynamic `$ref` loop) is reported invalid long before the call stack runs out.
 */
export const MAX_EVALUATION_DEPTH = 1000;

/** The instance location as an RFC 6901 pointer. */
export function pointerOf(at: Location | null): string {
  const tokens: (string | number)[] = [];
  for (let here = at; here !== null; here = here.parent) tokens.push(here.token);
  let out = '';
  for (let i = tokens.length - 1; i >= 0; i--) out = appendPointer(out, tokens[i]!);
  return out;
}

/** A recorded failure as the error reported: pointers are built once, at the end. */
export function reported(failure: Failure): ValidationError {
  return {
    instancePath: pointerOf(failure.at),
    schemaPath: failure.schemaPath,
    keyword: failure.keyword,
  };
}

/**
 * Records a failure unless one is already recorded on this failure path; a `false` schema's failure
 * (booleans carry no location) gets the schema path of the keyword that applied it.
 */
export function record(run: Run, at: Location | null, schemaPath: string, keyword: string): void {
  if (run.error === null) run.error = { at, schemaPath, keyword };
  else if (run.error.schemaPath === '') run.error.schemaPath = schemaPath;
}

/** A child location. */
export function child(at: Location | null, token: string | number): Location {
  return { parent: at, token };
}

/**
 * Applies a compiled schema to an instance. `marks` collects the annotations of the location when
 * an enclosing `unevaluated*` keyword needs them; they are only kept if the schema passes.
 */
export function evaluate(
  schema: Compiled,
  run: Run,
  instance: unknown,
  at: Location | null,
  scope: Scope,
  marks: Marks | null,
): boolean {
  if (typeof schema === 'boolean') {
    run.budget.spend(NODE_STEPS);
    if (schema) return true;
    run.error ??= { at, schemaPath: '', keyword: 'false schema' };
    return false;
  }
  run.budget.spend(schema.steps);
  if (run.exhausted !== null) return false;
  if (run.depth >= MAX_EVALUATION_DEPTH) {
    const path = `${schema.path}/maxDepth`;
    run.exhausted = { at, schemaPath: path, keyword: 'maxDepth' };
    return false;
  }
  run.depth++;
  const inner =
    schema.resource === scope.resource ? scope : { resource: schema.resource, outer: scope };
  let own = marks;
  // unevaluated* sees only what this schema evaluated, never its cousins' annotations.
  if (schema.ownMarks) own = typeof instance === 'object' && instance !== null ? new Marks() : null;
  const checks = schema.checks;
  let valid = true;
  for (let i = 0; i < checks.length; i++) {
    const keyword = checks[i]!;
    if (!keyword.check(run, instance, at, inner, own)) {
      record(run, at, keyword.path, keyword.keyword);
      valid = false;
      break;
    }
  }
  run.depth--;
  if (valid && own !== marks && own !== null && marks !== null) {
    run.budget.spend(own.size);
    marks.merge(own);
  }
  return valid;
}
