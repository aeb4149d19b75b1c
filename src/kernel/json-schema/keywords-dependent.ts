import { CHILDREN, KEY_STEPS, LOOKUP_STEPS, ONE } from './cost.js';
import { isObject } from './equal.js';
import { evaluate } from './evaluate.js';
import {
  type KeywordContext,
  type KeywordDefinition,
  nonNegativeInteger,
  objectValue,
  stringList,
} from './keyword.js';
import type { Check } from './types.js';

function requires(names: readonly string[]): (instance: Record<string, unknown>) => boolean {
  return (instance) => {
    for (let i = 0; i < names.length; i++) if (!Object.hasOwn(instance, names[i]!)) return false;
    return true;
  };
}

function compileDependent(context: KeywordContext, asRequired: boolean, asSchema: boolean): Check {
  const map = objectValue(context);
  let steps = 0; // one per entry, plus its names when present
  const rules: [string, Check][] = Object.keys(map).map((name) => {
    const value = map[name];
    steps += LOOKUP_STEPS;
    if (asRequired && Array.isArray(value)) {
      const names = stringList(context, value);
      const test = requires(names);
      steps += names.length * LOOKUP_STEPS;
      return [name, (_run, instance) => test(instance as Record<string, unknown>)];
    }
    if (!asSchema) return context.fail('must map property names to arrays of strings', name);
    const schema = context.inPlace(context.sub(value, name));
    return [
      name,
      (run, instance, at, scope, marks) => evaluate(schema, run, instance, at, scope, marks),
    ];
  });
  context.cost(ONE, steps);
  return (run, instance, at, scope, marks) => {
    if (!isObject(instance)) return true;
    run.budget.spend(steps);
    for (let i = 0; i < rules.length; i++) {
      const [name, rule] = rules[i]!;
      if (Object.hasOwn(instance, name) && !rule(run, instance, at, scope, marks)) return false;
    }
    return true;
  };
}

function count(within: (n: number, limit: number) => boolean): KeywordDefinition['compile'] {
  return (context) => {
    const limit = nonNegativeInteger(context);
    context.cost(CHILDREN, KEY_STEPS);
    return (run, instance) => {
      if (!isObject(instance)) return true;
      const n = Object.keys(instance).length;
      run.budget.spend(n * KEY_STEPS);
      return within(n, limit);
    };
  };
}

const VALIDATION = ['validation'];

/** Keywords on an object's property set: counts, `required`, `dependent*` and draft 7 `dependencies`. */
export const PROPERTY_SET_KEYWORDS: readonly KeywordDefinition[] = [
  { name: 'maxProperties', vocabularies: VALIDATION, compile: count((n, limit) => n <= limit) },
  { name: 'minProperties', vocabularies: VALIDATION, compile: count((n, limit) => n >= limit) },
  {
    name: 'required',
    vocabularies: VALIDATION,
    compile: (context) => {
      const names = stringList(context);
      const test = requires(names);
      const steps = names.length * LOOKUP_STEPS;
      context.cost(ONE, steps);
      return (run, instance) => {
        if (!isObject(instance)) return true;
        run.budget.spend(steps);
        return test(instance);
      };
    },
  },
  {
    name: 'dependentRequired',
    vocabularies: VALIDATION,
    compile: (context) => compileDependent(context, true, false),
  },
  {
    name: 'dependentSchemas',
    vocabularies: ['applicator'],
    compile: (context) => compileDependent(context, false, true),
  },
  {
    // Draft 7's keyword, kept (as Ajv keeps it) so a schema means the same on either engine.
    name: 'dependencies',
    vocabularies: ['applicator', 'validation'],
    compile: (context) => compileDependent(context, true, true),
  },
];
