import {
  AJV_PAIRS,
  CHILD_STEPS,
  CHILDREN,
  SET_STEPS,
  SIZE,
  WALK_STEPS_PER_WEIGHT,
} from './cost.js';
import { charSteps, jsonKey } from './equal.js';
import { child, evaluate } from './evaluate.js';
import { type KeywordContext, type KeywordDefinition, nonNegativeInteger } from './keyword.js';
import type { Check, Compiled } from './types.js';

function compilePrefixItems(context: KeywordContext): Check {
  if (!Array.isArray(context.value) || context.value.length === 0)
    context.fail('must be a non-empty array of schemas');
  const schemas: Compiled[] = context.value.map((item, i) =>
    context.child('prefix', context.sub(item, i)),
  );
  context.cost(CHILDREN, CHILD_STEPS);
  return (run, instance, at, scope, marks) => {
    if (!Array.isArray(instance)) return true;
    const n = Math.min(schemas.length, instance.length);
    run.budget.spend(n * CHILD_STEPS);
    for (let i = 0; i < n; i++) {
      if (!evaluate(schemas[i]!, run, instance[i], child(at, i), scope, null)) return false;
    }
    marks?.itemsBelow(n);
    return true;
  };
}

function compileItems(context: KeywordContext): Check {
  const schema = context.child('items', context.sub(context.value));
  const prefix = context.schema.prefixItems;
  // Items already covered by prefixItems are skipped (when prefixItems is in force).
  const start = Array.isArray(prefix) && context.vocabularies.has('applicator') ? prefix.length : 0;
  context.cost(CHILDREN, CHILD_STEPS);
  return (run, instance, at, scope, marks) => {
    if (!Array.isArray(instance)) return true;
    run.budget.spend(Math.max(0, instance.length - start) * CHILD_STEPS);
    for (let i = start; i < instance.length; i++) {
      if (!evaluate(schema, run, instance[i], child(at, i), scope, null)) return false;
    }
    marks?.everyItem();
    return true;
  };
}

function compileContains(context: KeywordContext): Check {
  const schema = context.child('contains', context.sub(context.value));
  context.cost(CHILDREN, CHILD_STEPS);
  const bounds = context.vocabularies.has('validation');
  const hasMin = bounds && Object.hasOwn(context.schema, 'minContains');
  const hasMax = bounds && Object.hasOwn(context.schema, 'maxContains');
  const min = hasMin ? nonNegativeInteger(context, context.schema.minContains) : 1;
  const max = hasMax ? nonNegativeInteger(context, context.schema.maxContains) : Infinity;
  return (run, instance, at, scope, marks) => {
    if (!Array.isArray(instance)) return true;
    let count = 0;
    for (let i = 0; i < instance.length; i++) {
      run.budget.spend(CHILD_STEPS);
      if (evaluate(schema, run, instance[i], child(at, i), scope, null)) {
        count++;
        marks?.item(i);
        // Without annotations to collect or a maximum to check, enough matches settle it.
        if (marks === null && !hasMax && count >= min) break;
      }
    }
    run.error = null; // items that do not match are not failures in themselves
    return count >= min && count <= max;
  };
}

function compileUniqueItems(context: KeywordContext): Check | null {
  if (typeof context.value !== 'boolean') context.fail('must be a boolean');
  if (!context.value) return null;
  context.cost(CHILDREN, SET_STEPS);
  context.cost(SIZE, WALK_STEPS_PER_WEIGHT);
  context.cost(AJV_PAIRS, 1); // Ajv compares items pairwise
  return (run, instance) => {
    if (!Array.isArray(instance)) return true;
    // Scalars by value, containers by canonical text: one walk, never a comparison of every pair.
    run.budget.spend(instance.length * SET_STEPS);
    const scalars = new Set<unknown>();
    const containers = new Set<string>();
    for (let i = 0; i < instance.length; i++) {
      const item: unknown = instance[i];
      if (typeof item !== 'object' || item === null) {
        if (typeof item === 'string') run.budget.spend(charSteps(item.length));
        if (scalars.has(item)) return false;
        scalars.add(item);
        continue;
      }
      const key = jsonKey(item, run.budget) as string;
      if (containers.has(key)) return false;
      containers.add(key);
    }
    return true;
  };
}

function compileUnevaluatedItems(context: KeywordContext): Check {
  const schema = context.child('unevaluatedItem', context.sub(context.value));
  context.cost(CHILDREN, CHILD_STEPS);
  return (run, instance, at, scope, marks) => {
    if (!Array.isArray(instance) || marks === null) return true;
    run.budget.spend(instance.length * CHILD_STEPS);
    for (let i = 0; i < instance.length; i++) {
      if (marks.hasItem(i)) continue;
      if (!evaluate(schema, run, instance[i], child(at, i), scope, null)) return false;
    }
    marks.everyItem();
    return true;
  };
}

function size(within: (n: number, limit: number) => boolean): KeywordDefinition['compile'] {
  return (context) => {
    const limit = nonNegativeInteger(context);
    return (_run, instance) => !Array.isArray(instance) || within(instance.length, limit);
  };
}

/** Array keywords (applicator, validation and unevaluated vocabularies). */
export const ARRAY_KEYWORDS: readonly KeywordDefinition[] = [
  { name: 'maxItems', vocabularies: ['validation'], compile: size((n, limit) => n <= limit) },
  { name: 'minItems', vocabularies: ['validation'], compile: size((n, limit) => n >= limit) },
  { name: 'uniqueItems', vocabularies: ['validation'], compile: compileUniqueItems },
  { name: 'prefixItems', vocabularies: ['applicator'], compile: compilePrefixItems },
  { name: 'items', vocabularies: ['applicator'], compile: compileItems },
  { name: 'contains', vocabularies: ['applicator'], compile: compileContains },
  { name: 'unevaluatedItems', vocabularies: ['unevaluated'], compile: compileUnevaluatedItems },
];
