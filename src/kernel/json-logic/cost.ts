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

/** Steps charged for work heavier than one step (measured by `bench/kernel/worst-rules.js`). */
export const STEP_COSTS = Object.freeze({
  /**
   * A new array, object or string a rule can keep (an array literal, a `map`/`filter`/`merge`/
   * `missing` result, a `cat`/`substr` text, an iteration's `{ iterator, index }`): making it is
   * cheap, but one kept in a large result costs the garbage collector ~300 ns.
   */
  allocation: 16,
  /** A scope made for one call of an iterator (never kept). */
  scope: 2,
  /** An element `map` or `filter` visits and keeps: the visit and the slot of the result. */
  builtElement: 3,
  /** An item `merge` copies into its result. */
  mergedItem: 2,
  /** A `reduce` step: the visit, the `{ accumulator, current }` context and the check. */
  reduceStep: 4,
  /** An element folded by arithmetic over an array (`{"+": {"var": "xs"}}`). */
  foldedElement: 2,
  /** A key `missing` looks up (the text of the key, the lookup, the result). */
  missingKey: 10,
  /**
   * A member looked up by a key the rule computed or read from the artifact: V8 interns such a
   * string in its string table first (~100 ns); keys written in the rule are interned once.
   */
  dynamicKey: 6,
  /** An element of a literal array or of an array turned into text (made, then kept or joined). */
  listElement: 2,
  /** A number or boolean turned into text (shortest round-trip digits). */
  numberText: 16,
  /** Characters of a numeric string parsed per step (`+"123…"`). */
  parsedCharsPerStep: 8,
  /** A failure caught by `try` (the throw, the unwind, the error context). */
  caught: 90,
  /** Haystack characters per step of a substring search (V8's worst case is quadratic-ish). */
  searchCharsPerStep: 2,
});
