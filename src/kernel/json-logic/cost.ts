/**
 * What evaluation charges to the step budget. One step is one operator, one literal array element,
 * one element an iterator visits or a scan passes, one path segment or scope climbed, or
 * {@link CHARS_PER_STEP} characters of a string built, searched, compared or parsed.
 */

/** Characters of string work per step (2^4). */
export const CHARS_PER_STEP = 16;

/** Steps for `length` characters of string work. */
export function textSteps(length: number): number {
  return length >>> 4;
}

/** Extra steps for operations that allocate per call (a scope, a result array, an error context). */
export const ALLOCATION_STEPS = 2;
