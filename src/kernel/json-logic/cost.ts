/**
 * What evaluation charges to the step budget. One step is about 15 ns of work on a 2-core server:
 * one operator, one literal array element, one element an iterator visits or a scan passes, one
 * path segment or scope climbed, or {@link CHARS_PER_STEP} characters of a string built, copied,
 * compared or parsed. Heavier work is charged by what it costs ({@link STEP_COSTS}).
 */

/** Characters of linear string work per step (2^4). */
export const CHARS_PER_STEP = 16;

/** Steps for `length` characters of linear string work. */
export function textSteps(length: number): number {
  return length >>> 4;
}

/** Steps charged for work heavier than one step. */
export const STEP_COSTS = Object.freeze({
  /** A number or boolean turned into text (shortest round-trip digits). */
  numberText: 8,
  /** A failure caught by `try` (the throw, the unwind, the error context). */
  caught: 20,
  /** Haystack characters per step of a substring search (V8's worst case is quadratic-ish). */
  searchCharsPerStep: 4,
});
