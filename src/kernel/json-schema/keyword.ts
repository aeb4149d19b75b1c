import { isObject } from './equal.js';
import {
  type LinearPattern,
  linearPattern,
  PATTERN_LIMITS,
  PATTERN_OVERHEAD,
  PatternRefused,
} from './regex.js';
import type { Check, Compiled, NodeInfo, Slot, Vocabularies } from './types.js';

/** What a keyword's compiler sees of its schema, and how it compiles subschemas and references. */
export interface KeywordContext {
  /** The schema object holding the keyword. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** The keyword's value. */
  readonly value: unknown;
  readonly keyword: string;
  /** Where the schema object sits. */
  readonly info: NodeInfo;
  /** The vocabularies in force for the schema object. */
  readonly vocabularies: Vocabularies;
  /** Whether `format` asserts. */
  readonly formatAssertion: boolean;
  /** Compiles a subschema found at `keyword/...tokens`. */
  sub(value: unknown, ...tokens: (string | number)[]): Compiled;
  /** Compiles the schema under another keyword of the same schema object (`then` beside `if`). */
  sibling(keyword: string): Compiled;
  /** Compiles the schema a `$ref` value resolves to. */
  ref(reference: string): Compiled;
  /**
   * Compiles a `$dynamicRef`'s initial target; `dynamic` is the anchor name to look up in the dynamic
   * scope, or null when the reference behaves like `$ref`.
   */
  dynamicRef(reference: string): { target: Compiled; dynamic: string | null };
  /** Notes a subschema applied to the same instance location (for `$ref` cycles and the bounds). */
  inPlace(schema: Compiled): Compiled;
  /** Notes a subschema applied to a child of the location (for the bounds). */
  child(slot: Slot, schema: Compiled): Compiled;
  /** Declares what the keyword's check charges per application, beyond its subschemas (cost.ts). */
  cost(component: number, amount: number): void;
  /** Declares that no static bound covers the keyword's cost. */
  unbounded(): void;
  /** Adds a pattern's compile weight to the schema's; false once the total passes the limit. */
  patternWeight(weight: number): boolean;
  /** Throws a SchemaError about `keyword/...tokens`, located at the schema object. */
  fail(message: string, ...tokens: (string | number)[]): never;
}

/** How one keyword compiles: null means it asserts nothing (e.g. `format` as an annotation). */
export interface KeywordDefinition {
  readonly name: string;
  /** The keyword applies when any of these vocabularies is in force. */
  readonly vocabularies: readonly string[];
  readonly compile: (context: KeywordContext) => Check | null;
}

/** Reads an object keyword value (a map from names to schemas or lists). */
export function objectValue(context: KeywordContext): Record<string, unknown> {
  if (!isObject(context.value)) context.fail('must be an object');
  return context.value;
}

/** Reads a non-negative integer keyword value (1.0 counts as 1). */
export function nonNegativeInteger(context: KeywordContext, value = context.value): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    context.fail('must be a non-negative integer');
  return value;
}

/** Reads a finite number keyword value. */
export function finiteNumber(context: KeywordContext): number {
  if (typeof context.value !== 'number' || !Number.isFinite(context.value))
    context.fail('must be a number');
  return context.value;
}

/** Reads an array of strings (property names). */
export function stringList(context: KeywordContext, value = context.value): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    context.fail('must be an array of strings');
  return value as string[];
}

/**
 * Compiles a pattern (ECMA-262, Unicode mode) for RE2, the linear-time engine: a pattern that is not
 * ECMA-262, or that RE2 cannot express, is a schema error naming it.
 */
export function compilePattern(
  context: KeywordContext,
  source: unknown,
  at: string[] = [],
  counted = true,
): LinearPattern {
  if (typeof source !== 'string') context.fail('must be a string', ...at);
  let pattern: LinearPattern;
  try {
    pattern = linearPattern(source);
  } catch (error) {
    const quoted = JSON.stringify(source);
    if (error instanceof PatternRefused)
      return context.fail(`${quoted} cannot run in linear time: ${error.message}`, ...at);
    return context.fail(`${quoted} is not a valid regular expression`, ...at);
  }
  if (counted && !context.patternWeight(pattern.compileWeight + PATTERN_OVERHEAD)) {
    const limit = PATTERN_LIMITS.maxSchemaCompileWeight;
    context.fail(`the schema's patterns hold more than ${limit} instructions and ranges`, ...at);
  }
  return pattern;
}
