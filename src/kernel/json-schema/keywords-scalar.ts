import { jsonEqual } from './equal.js';
import { formatCheck } from './formats.js';
import {
  finiteNumber,
  type KeywordContext,
  type KeywordDefinition,
  nonNegativeInteger,
  unicodeRegExp,
} from './keyword.js';
import { codePointLength, isMultipleOf } from './numbers.js';
import type { Check } from './types.js';

const TYPE_BITS: Readonly<Record<string, number>> = {
  null: 1,
  boolean: 2,
  object: 4,
  array: 8,
  number: 16,
  string: 32,
  integer: 64,
};

function typeBitsOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return TYPE_BITS.string!;
    case 'boolean':
      return TYPE_BITS.boolean!;
    case 'number':
      if (!Number.isFinite(value)) return 0; // NaN and ±Infinity are not JSON
      return Number.isInteger(value) ? TYPE_BITS.number! | TYPE_BITS.integer! : TYPE_BITS.number!;
    case 'object':
      if (value === null) return TYPE_BITS.null!;
      return Array.isArray(value) ? TYPE_BITS.array! : TYPE_BITS.object!;
    default:
      return 0;
  }
}

function compileType(context: KeywordContext): Check {
  const names = Array.isArray(context.value) ? context.value : [context.value];
  let mask = 0;
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(TYPE_BITS, name))
      context.fail('must be a type name or an array of type names');
    mask |= TYPE_BITS[name]!;
  }
  return (_run, instance) => (typeBitsOf(instance) & mask) !== 0;
}

function compileEnum(context: KeywordContext): Check {
  if (!Array.isArray(context.value)) context.fail('must be an array');
  const scalars = new Set<unknown>();
  const containers: unknown[] = [];
  for (const member of context.value) {
    if (typeof member === 'object' && member !== null) containers.push(member);
    else scalars.add(member);
  }
  return (_run, instance) => {
    if (typeof instance !== 'object' || instance === null) return scalars.has(instance);
    return containers.some((member) => jsonEqual(member, instance));
  };
}

function numeric(test: (value: number, limit: number) => boolean): KeywordDefinition['compile'] {
  return (context) => {
    const limit = finiteNumber(context);
    return (_run, instance) => typeof instance !== 'number' || test(instance, limit);
  };
}

function compileMultipleOf(context: KeywordContext): Check {
  const divisor = finiteNumber(context);
  if (divisor <= 0) context.fail('must be greater than 0');
  return (_run, instance) => typeof instance !== 'number' || isMultipleOf(instance, divisor);
}

function length(within: (length: number, limit: number) => boolean): KeywordDefinition['compile'] {
  return (context) => {
    const limit = nonNegativeInteger(context);
    return (_run, instance) =>
      typeof instance !== 'string' || within(codePointLength(instance), limit);
  };
}

function compilePattern(context: KeywordContext): Check {
  const pattern = unicodeRegExp(context, context.value);
  return (_run, instance) => typeof instance !== 'string' || pattern.test(instance);
}

function compileFormat(context: KeywordContext): Check | null {
  if (typeof context.value !== 'string') context.fail('must be a string');
  const asserts = context.formatAssertion || context.vocabularies.has('format-assertion');
  const check = asserts ? formatCheck(context.value) : undefined;
  return check === undefined ? null : (_run, instance) => check(instance);
}

const VALIDATION = ['validation'];

/** Keywords on any type and on numbers and strings (validation and format vocabularies). */
export const SCALAR_KEYWORDS: readonly KeywordDefinition[] = [
  { name: 'type', vocabularies: VALIDATION, compile: compileType },
  {
    name: 'const',
    vocabularies: VALIDATION,
    compile: (context) => {
      const expected = context.value;
      if (typeof expected !== 'object' || expected === null)
        return (_run, instance) => instance === expected;
      return (_run, instance) => jsonEqual(expected, instance);
    },
  },
  { name: 'enum', vocabularies: VALIDATION, compile: compileEnum },
  { name: 'multipleOf', vocabularies: VALIDATION, compile: compileMultipleOf },
  { name: 'maximum', vocabularies: VALIDATION, compile: numeric((v, limit) => v <= limit) },
  { name: 'exclusiveMaximum', vocabularies: VALIDATION, compile: numeric((v, limit) => v < limit) },
  { name: 'minimum', vocabularies: VALIDATION, compile: numeric((v, limit) => v >= limit) },
  { name: 'exclusiveMinimum', vocabularies: VALIDATION, compile: numeric((v, limit) => v > limit) },
  { name: 'maxLength', vocabularies: VALIDATION, compile: length((n, limit) => n <= limit) },
  { name: 'minLength', vocabularies: VALIDATION, compile: length((n, limit) => n >= limit) },
  { name: 'pattern', vocabularies: VALIDATION, compile: compilePattern },
  {
    name: 'format',
    vocabularies: ['format-annotation', 'format-assertion'],
    compile: compileFormat,
  },
];
