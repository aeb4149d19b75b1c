import { DYNAMIC_STEPS } from './cost.js';
import { evaluate } from './evaluate.js';
import type { KeywordDefinition } from './keyword.js';
import type { Check, Compiled } from './types.js';

function reference(context: { value: unknown; fail(message: string): never }): string {
  if (typeof context.value !== 'string') context.fail('must be a URI reference string');
  return context.value;
}

function apply(target: Compiled): Check {
  return (run, instance, at, scope, marks) => evaluate(target, run, instance, at, scope, marks);
}

/** `$ref` and `$dynamicRef` (core vocabulary). */
export const CORE_KEYWORDS: readonly KeywordDefinition[] = [
  {
    name: '$ref',
    vocabularies: ['core'],
    compile: (context) => apply(context.inPlace(context.ref(reference(context)))),
  },
  {
    name: '$dynamicRef',
    vocabularies: ['core'],
    compile: (context) => {
      const { target, dynamic } = context.dynamicRef(reference(context));
      context.inPlace(target);
      if (dynamic === null) return apply(target);
      context.unbounded(); // the target depends on the dynamic scope, not on the schema alone
      return (run, instance, at, scope, marks) => {
        // The outermost resource in the dynamic scope that has a matching $dynamicAnchor wins.
        let chosen = target;
        for (let here: typeof scope | null = scope; here !== null; here = here.outer) {
          run.budget.spend(DYNAMIC_STEPS);
          const found = here.resource.dynamic.get(dynamic);
          if (found !== undefined) chosen = found;
        }
        return evaluate(chosen, run, instance, at, scope, marks);
      };
    },
  },
];
