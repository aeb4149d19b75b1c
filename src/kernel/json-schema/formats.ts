import { fullFormats } from 'ajv-formats/dist/formats.js';

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
