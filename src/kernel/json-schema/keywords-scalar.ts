import {
  AJV_ONE,
  AJV_SIZE,
  CHARS,
  CHARS_PER_STEP,
  DECIMAL_STEPS,
  ONE,
  REGEX_CALL_STEPS,
  REGEX_STEPS_PER_WEIGHT,
  regexSteps,
  SCAN_CHARS_PER_STEP,
  SIZE,
  WALK_STEPS_PER_WEIGHT,
} from './cost.js';
import { charSteps, jsonEqual, jsonKey, jsonWeight } from './equal.js';
import { declareFormatCost, formatCheck, formatSteps } from './formats.js';
import {
  compilePattern,
  finiteNumber,
  type KeywordContext,
  type KeywordDefinition,
  nonNegativeInteger,
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

/** Canonical texts, for members that are objects or arrays (no budget: the schema is bounded). */
const UNLIMITED = { spend() {} } as unknown as Parameters<typeof jsonKey>[1];

/**
 * Scalars by value in a Set; objects and arrays by their canonical text in another, so an instance
 * is hashed once (never compared with each member), and only up to the longest member's text.
 */
function compileEnum(context: KeywordContext): Check {
  if (!Array.isArray(context.value)) context.fail('must be an array');
  const scalars = new Set<unknown>();
  const containers = new Set<string>();
  let longest = 0;
  for (const member of context.value) {
    if (typeof member === 'object' && member !== null) {
      const key = jsonKey(member, UNLIMITED) as string;
      containers.add(key);
      longest = Math.max(longest, key.length);
    } else scalars.add(member);
  }
  context.cost(ONE, 1);
  context.cost(CHARS, 1 / CHARS_PER_STEP);
  if (containers.size > 0) {
    // The capped walk emits at most `longest` characters, and lists the keys of what it opens.
    context.cost(ONE, WALK_STEPS_PER_WEIGHT * (longest + 1));
    context.cost(SIZE, WALK_STEPS_PER_WEIGHT);
  }
  // Ajv compares the instance with each member in turn.
  context.cost(AJV_ONE, context.value.length);
  context.cost(AJV_SIZE, context.value.length);
  return (run, instance) => {
    if (typeof instance !== 'object' || instance === null) {
      if (typeof instance === 'string') run.budget.spend(charSteps(instance.length));
      return scalars.has(instance);
    }
    if (containers.size === 0) return false;
    const key = jsonKey(instance, run.budget, longest);
    return key !== null && containers.has(key);
  };
}

function compileConst(context: KeywordContext): Check {
  const expected = context.value;
  if (typeof expected !== 'object' || expected === null) {
    if (typeof expected === 'string') context.cost(ONE, charSteps(expected.length));
    // (an equal-length string is compared in full: at most `expected`'s length)
    return (run, instance) => {
      if (typeof instance === 'string' && typeof expected === 'string')
        run.budget.spend(charSteps(expected.length));
      return instance === expected;
    };
  }
  // Comparing walks at most every value of `expected` and every key of the instance objects it meets.
  context.cost(ONE, WALK_STEPS_PER_WEIGHT * jsonWeight(expected));
  context.cost(SIZE, WALK_STEPS_PER_WEIGHT);
  return (run, instance) => jsonEqual(expected, instance, run.budget);
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
  context.cost(ONE, DECIMAL_STEPS);
  return (run, instance) => {
    if (typeof instance !== 'number') return true;
    if (!Number.isSafeInteger(instance) || !Number.isSafeInteger(divisor))
      run.budget.spend(DECIMAL_STEPS);
    return isMultipleOf(instance, divisor);
  };
}

function length(within: (length: number, limit: number) => boolean): KeywordDefinition['compile'] {
  return (context) => {
    const limit = nonNegativeInteger(context);
    context.cost(ONE, 1);
    context.cost(CHARS, 1 / SCAN_CHARS_PER_STEP);
    return (run, instance) => {
      if (typeof instance !== 'string') return true;
      run.budget.spend(Math.ceil(instance.length / SCAN_CHARS_PER_STEP));
      return within(codePointLength(instance), limit);
    };
  };
}

function compilePatternKeyword(context: KeywordContext): Check {
  const pattern = compilePattern(context, context.value);
  context.cost(ONE, REGEX_CALL_STEPS);
  context.cost(CHARS, pattern.weight * REGEX_STEPS_PER_WEIGHT);
  return (run, instance) => {
    if (typeof instance !== 'string') return true;
    run.budget.spend(regexSteps(instance.length, pattern.weight));
    return pattern.test(instance);
  };
}

function compileFormat(context: KeywordContext): Check | null {
  if (typeof context.value !== 'string') context.fail('must be a string');
  const asserts = context.formatAssertion || context.vocabularies.has('format-assertion');
  const name = context.value;
  const check = asserts ? formatCheck(name) : undefined;
  if (check === undefined) return null;
  declareFormatCost(name, (component, amount) => context.cost(component, amount));
  return (run, instance) => {
    if (typeof instance === 'string') run.budget.spend(formatSteps(name, instance.length));
    return check(instance);
  };
}

const VALIDATION = ['validation'];

/** Keywords on any type and on numbers and strings (validation and format vocabularies). */
export const SCALAR_KEYWORDS: readonly KeywordDefinition[] = [
  { name: 'type', vocabularies: VALIDATION, compile: compileType },
  { name: 'const', vocabularies: VALIDATION, compile: compileConst },
  { name: 'enum', vocabularies: VALIDATION, compile: compileEnum },
  { name: 'multipleOf', vocabularies: VALIDATION, compile: compileMultipleOf },
  { name: 'maximum', vocabularies: VALIDATION, compile: numeric((v, limit) => v <= limit) },
  { name: 'exclusiveMaximum', vocabularies: VALIDATION, compile: numeric((v, limit) => v < limit) },
  { name: 'minimum', vocabularies: VALIDATION, compile: numeric((v, limit) => v >= limit) },
  { name: 'exclusiveMinimum', vocabularies: VALIDATION, compile: numeric((v, limit) => v > limit) },
  { name: 'maxLength', vocabularies: VALIDATION, compile: length((n, limit) => n <= limit) },
  { name: 'minLength', vocabularies: VALIDATION, compile: length((n, limit) => n >= limit) },
  { name: 'pattern', vocabularies: VALIDATION, compile: compilePatternKeyword },
  {
    name: 'format',
    vocabularies: ['format-annotation', 'format-assertion'],
    compile: compileFormat,
  },
];
