import { isObject } from './equal.js';
import { child, evaluate } from './evaluate.js';
import {
  type KeywordContext,
  type KeywordDefinition,
  objectValue,
  unicodeRegExp,
} from './keyword.js';
import type { Check, Compiled } from './types.js';

function compileProperties(context: KeywordContext): Check {
  const map = objectValue(context);
  const names = Object.keys(map);
  const schemas: Compiled[] = names.map((name) => context.sub(map[name], name));
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (!Object.hasOwn(instance, name)) continue;
      if (!evaluate(schemas[i]!, run, instance[name], child(at, name), scope, null)) return false;
      marks?.prop(name);
    }
    return true;
  };
}

function patterns(context: KeywordContext, map: unknown): RegExp[] {
  if (!isObject(map)) return [];
  return Object.keys(map).map((source) => unicodeRegExp(context, source, source));
}

function compilePatternProperties(context: KeywordContext): Check {
  const map = objectValue(context);
  const entries: [RegExp, Compiled][] = Object.keys(map).map((source) => [
    unicodeRegExp(context, source, source),
    context.sub(map[source], source),
  ]);
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    for (const name of Object.keys(instance)) {
      for (const [pattern, schema] of entries) {
        if (!pattern.test(name)) continue;
        if (!evaluate(schema, run, instance[name], child(at, name), scope, null)) return false;
        marks?.prop(name);
      }
    }
    return true;
  };
}

function compileAdditionalProperties(context: KeywordContext): Check {
  const schema = context.sub(context.value);
  const applicator = context.vocabularies.has('applicator');
  const props = context.schema.properties;
  const known = new Set(applicator && isObject(props) ? Object.keys(props) : []);
  const matchers = applicator ? patterns(context, context.schema.patternProperties) : [];
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    for (const name of Object.keys(instance)) {
      if (known.has(name) || (matchers.length > 0 && matchers.some((re) => re.test(name))))
        continue;
      if (!evaluate(schema, run, instance[name], child(at, name), scope, null)) return false;
    }
    marks?.everyProp();
    return true;
  };
}

function compilePropertyNames(context: KeywordContext): Check {
  const schema = context.sub(context.value);
  return (run, instance, at, scope) => {
    if (!isObject(instance)) return true;
    for (const name of Object.keys(instance)) {
      if (!evaluate(schema, run, name, child(at, name), scope, null)) return false;
    }
    return true;
  };
}

function compileUnevaluatedProperties(context: KeywordContext): Check {
  const schema = context.sub(context.value);
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance) || marks === null) return true;
    for (const name of Object.keys(instance)) {
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
