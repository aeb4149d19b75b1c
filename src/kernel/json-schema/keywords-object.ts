import {
  AJV_CHILDREN,
  CHILD_STEPS,
  CHILDREN,
  KEY_CHARS,
  KEY_STEPS,
  LOOKUP_STEPS,
  ONE,
  REGEX_CALL_STEPS,
  REGEX_STEPS_PER_WEIGHT,
  regexSteps,
} from './cost.js';
import { isObject } from './equal.js';
import { child, evaluate } from './evaluate.js';
import {
  compilePattern,
  type KeywordContext,
  type KeywordDefinition,
  objectValue,
} from './keyword.js';
import type { LinearPattern } from './regex.js';
import type { Check, Compiled, Run } from './types.js';

/** The instance's property names, charged as listed and visited. */
function keysOf(run: Run, instance: Record<string, unknown>): string[] {
  const names = Object.keys(instance);
  run.budget.spend(names.length * (KEY_STEPS + CHILD_STEPS));
  return names;
}

const PER_KEY = KEY_STEPS + CHILD_STEPS;

/** Declares what testing every property name against `patterns` costs (see cost.ts). */
function declarePatterns(context: KeywordContext, patterns: readonly LinearPattern[]): void {
  let weight = 0;
  for (const pattern of patterns) weight += pattern.weight;
  context.cost(CHILDREN, PER_KEY + patterns.length * REGEX_CALL_STEPS);
  context.cost(KEY_CHARS, weight * REGEX_STEPS_PER_WEIGHT);
}

/** Whether a property name matches a pattern, charged before the engine runs. */
function matches(run: Run, pattern: LinearPattern, name: string): boolean {
  run.budget.spend(regexSteps(name.length, pattern.weight));
  return pattern.test(name);
}

function compileProperties(context: KeywordContext): Check {
  const map = objectValue(context);
  const names = Object.keys(map);
  const schemas: Compiled[] = names.map((name) =>
    context.child('property', context.sub(map[name], name)),
  );
  context.cost(ONE, names.length * LOOKUP_STEPS);
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    run.budget.spend(names.length * LOOKUP_STEPS);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (!Object.hasOwn(instance, name)) continue;
      if (!evaluate(schemas[i]!, run, instance[name], child(at, name), scope, null)) return false;
      marks?.prop(name);
    }
    return true;
  };
}

/** patternProperties' patterns again, for additionalProperties (counted once, by patternProperties). */
function patterns(context: KeywordContext, map: unknown): LinearPattern[] {
  if (!isObject(map)) return [];
  return Object.keys(map).map((source) => compilePattern(context, source, [source], false));
}

function compilePatternProperties(context: KeywordContext): Check {
  const map = objectValue(context);
  const entries: [LinearPattern, Compiled][] = Object.keys(map).map((source) => [
    compilePattern(context, source, [source]),
    context.child('pattern', context.sub(map[source], source)),
  ]);
  declarePatterns(
    context,
    entries.map(([pattern]) => pattern),
  );
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    const names = keysOf(run, instance);
    for (let n = 0; n < names.length; n++) {
      const name = names[n]!;
      for (let e = 0; e < entries.length; e++) {
        const [pattern, schema] = entries[e]!;
        if (!matches(run, pattern, name)) continue;
        if (!evaluate(schema, run, instance[name], child(at, name), scope, null)) return false;
        marks?.prop(name);
      }
    }
    return true;
  };
}

function compileAdditionalProperties(context: KeywordContext): Check {
  const schema = context.child('additional', context.sub(context.value));
  const applicator = context.vocabularies.has('applicator');
  const props = context.schema.properties;
  const known = new Set(applicator && isObject(props) ? Object.keys(props) : []);
  const matchers = applicator ? patterns(context, context.schema.patternProperties) : [];
  declarePatterns(context, matchers);
  // Ajv compares each name with up to 8 declared properties before it tests the patterns.
  context.cost(AJV_CHILDREN, Math.min(known.size, 8));
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    const names = keysOf(run, instance);
    for (let n = 0; n < names.length; n++) {
      const name = names[n]!;
      if (known.has(name) || matchers.some((pattern) => matches(run, pattern, name))) continue;
      if (!evaluate(schema, run, instance[name], child(at, name), scope, null)) return false;
    }
    marks?.everyProp();
    return true;
  };
}

function compilePropertyNames(context: KeywordContext): Check {
  const schema = context.child('name', context.sub(context.value));
  context.cost(CHILDREN, PER_KEY);
  return (run, instance, at, scope) => {
    if (!isObject(instance)) return true;
    const names = keysOf(run, instance);
    for (let n = 0; n < names.length; n++) {
      const name = names[n]!;
      if (!evaluate(schema, run, name, child(at, name), scope, null)) return false;
    }
    return true;
  };
}

function compileUnevaluatedProperties(context: KeywordContext): Check {
  const schema = context.child('unevaluatedProperty', context.sub(context.value));
  context.cost(CHILDREN, PER_KEY);
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance) || marks === null) return true;
    const names = keysOf(run, instance);
    for (let n = 0; n < names.length; n++) {
      const name = names[n]!;
      if (marks.hasProp(name)) continue;
      if (!evaluate(schema, run, instance[name], child(at, name), scope, null)) return false;
    }
    marks.everyProp();
    return true;
  };
}

const APPLICATOR = ['applicator'];

/** Keywords applying schemas to an object's properties (applicator and unevaluated vocabularies). */
export const OBJECT_KEYWORDS: readonly KeywordDefinition[] = [
  { name: 'properties', vocabularies: APPLICATOR, compile: compileProperties },
  { name: 'patternProperties', vocabularies: APPLICATOR, compile: compilePatternProperties },
  { name: 'additionalProperties', vocabularies: APPLICATOR, compile: compileAdditionalProperties },
  { name: 'propertyNames', vocabularies: APPLICATOR, compile: compilePropertyNames },
  {
    name: 'unevaluatedProperties',
    vocabularies: ['unevaluated'],
    compile: compileUnevaluatedProperties,
  },
];
