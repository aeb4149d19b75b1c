import { fullFormats } from 'ajv-formats/dist/formats.js';
import { CHARS, CHARS2, ONE } from './cost.js';

/** A format check: true when the value conforms or the format does not apply to its type. */
export type FormatCheck = (value: unknown) => boolean;

type Definition = (typeof fullFormats)[keyof typeof fullFormats];

function toCheck(definition: Definition): FormatCheck | undefined {
  if (definition === true) return () => true;
  const spec =
    typeof definition === 'object' && !(definition instanceof RegExp) ? definition : undefined;
  const test = spec === undefined ? definition : spec.validate;
  if (spec !== undefined && 'async' in spec && spec.async === true) return undefined;
  const applies = spec?.type === 'number' ? 'number' : 'string';
  let matches: (value: never) => unknown;
  if (test instanceof RegExp) {
    // Without g/y a RegExp keeps no lastIndex between calls (ajv-formats' `byte` has /gm).
    const pattern = new RegExp(test.source, test.flags.replace(/[gy]/g, ''));
    matches = (value: string) => pattern.test(value);
  } else if (typeof test === 'function') matches = test as (value: never) => unknown;
  else return undefined;
  return (value) => typeof value !== applies || matches(value as never) === true;
}

const CHECKS = new Map<string, FormatCheck>();
for (const [name, definition] of Object.entries(fullFormats)) {
  const check = toCheck(definition);
  if (check !== undefined) CHECKS.set(name, check);
}

/** The assertion for a format name (ajv-formats' full mode); undefined for unknown formats. */
export function formatCheck(name: string): FormatCheck | undefined {
  return CHECKS.get(name);
}

/**
 * What a format check may cost, in steps, for a string of n characters: `call + perChar·n +
 * perChar2·n²`. ajv-formats' checks are V8 regular expressions (and `regex` compiles one); each was
 * read for backtracking and measured on hostile strings (bench/kernel/schema-worst.js): all are
 * linear but `url`, whose `\S+(?::\S*)?@` backtracks quadratically, and `regex` costs most per
 * character. Numbers cost a call.
 */
interface FormatCost {
  readonly call: number;
  readonly perChar: number;
  readonly perChar2: number;
}

const LINEAR: FormatCost = { call: 16, perChar: 1, perChar2: 0 };
// date-time splits on every space or `t`: one string allocated per separator.
const SPLITTING: FormatCost = { call: 16, perChar: 12, perChar2: 0 };
const FORMAT_COSTS: Readonly<Record<string, FormatCost>> = {
  'date-time': SPLITTING,
  'iso-date-time': SPLITTING,
  url: { call: 16, perChar: 1, perChar2: 0.125 },
  regex: { call: 16, perChar: 64, perChar2: 0 },
};

function costOf(name: string): FormatCost {
  return Object.hasOwn(FORMAT_COSTS, name) ? FORMAT_COSTS[name]! : LINEAR;
}

/** Steps charged before checking a string of `length` characters against a format. */
export function formatSteps(name: string, length: number): number {
  const { call, perChar, perChar2 } = costOf(name);
  return Math.ceil(call + perChar * length + perChar2 * length * length);
}

/** Declares a format's cost to the static bounds (see cost.ts); `call` covers numbers too. */
export function declareFormatCost(
  name: string,
  declare: (component: number, amount: number) => void,
): void {
  const { call, perChar, perChar2 } = costOf(name);
  declare(ONE, call + 1);
  declare(CHARS, perChar);
  declare(CHARS2, perChar2);
}
