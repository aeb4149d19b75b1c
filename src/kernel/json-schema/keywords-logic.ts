import { Marks } from './annotations.js';
import { evaluate } from './evaluate.js';
import type { KeywordContext, KeywordDefinition } from './keyword.js';
import type { Check, Compiled, Location, Run, Scope } from './types.js';

function schemaList(context: KeywordContext): Compiled[] {
  if (!Array.isArray(context.value) || context.value.length === 0)
    context.fail('must be a non-empty array of schemas');
  return context.value.map((item, i) => context.inPlace(context.sub(item, i)));
}

function compileAllOf(context: KeywordContext): Check {
  const schemas = schemaList(context);
  return (run, instance, at, scope, marks) => {
    for (let i = 0; i < schemas.length; i++) {
      if (!evaluate(schemas[i]!, run, instance, at, scope, marks)) return false;
    }
    return true;
  };
}

/**
 * Applies each branch on its own marks (a failing branch's annotations are dropped); with no
 * annotations to collect, stops once `enough` branches passed. Returns how many passed.
 */
function passing(
  schemas: Compiled[],
  enough: number,
  run: Run,
  instance: unknown,
  at: Location | null,
  scope: Scope,
  marks: Marks | null,
): number {
  let passed = 0;
  // Index loops here and in every check: an iterator in recursive code costs an allocation per call.
  for (let i = 0; i < schemas.length; i++) {
    const own = marks === null ? null : new Marks();
    if (evaluate(schemas[i]!, run, instance, at, scope, own)) {
      passed++;
      if (own !== null) {
        run.budget.spend(own.size);
        marks!.merge(own);
      }
      if (marks === null && passed >= enough) break;
    }
  }
  return passed;
}

function compileAnyOf(context: KeywordContext): Check {
  const schemas = schemaList(context);
  return (run, instance, at, scope, marks) => {
    const passed = passing(schemas, 1, run, instance, at, scope, marks);
    if (passed > 0) run.error = null;
    return passed > 0;
  };
}

function compileOneOf(context: KeywordContext): Check {
  const schemas = schemaList(context);
  return (run, instance, at, scope, marks) => {
    // Annotations are merged only when exactly one branch passed: the keyword fails otherwise.
    const passed = passing(schemas, 2, run, instance, at, scope, marks);
    run.error = null;
    return passed === 1;
  };
}

function compileNot(context: KeywordContext): Check {
  const schema = context.inPlace(context.sub(context.value));
  return (run, instance, at, scope) => {
    if (evaluate(schema, run, instance, at, scope, null)) return false;
    run.error = null;
    return true;
  };
}

function compileIf(context: KeywordContext): Check | null {
  const test = context.inPlace(context.sub(context.value));
  const branch = (name: string): Compiled =>
    Object.hasOwn(context.schema, name) ? context.inPlace(context.sibling(name)) : true;
  const then = branch('then');
  const otherwise = branch('else');
  return (run, instance, at, scope, marks) => {
    const own = marks === null ? null : new Marks();
    const holds = evaluate(test, run, instance, at, scope, own);
    if (own !== null && holds) {
      run.budget.spend(own.size);
      marks!.merge(own);
    }
    run.error = null;
    return evaluate(holds ? then : otherwise, run, instance, at, scope, marks);
  };
}

/** In-place applicators: allOf, anyOf, oneOf, not, if/then/else (applicator vocabulary). */
export const LOGIC_KEYWORDS: readonly KeywordDefinition[] = [
  { name: 'allOf', vocabularies: ['applicator'], compile: compileAllOf },
  { name: 'anyOf', vocabularies: ['applicator'], compile: compileAnyOf },
  { name: 'oneOf', vocabularies: ['applicator'], compile: compileOneOf },
  { name: 'not', vocabularies: ['applicator'], compile: compileNot },
  { name: 'if', vocabularies: ['applicator'], compile: compileIf },
];
