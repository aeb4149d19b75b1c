/**
 * The values a rule throws. They are frozen objects with a `type` (what `try` exposes to its
 * fallback), compared by identity, and never `Error`s: an `Error` escaping a rule is a bug in the
 * evaluator, which `try` does not swallow.
 */

/** Arguments of the wrong shape or type (json-logic-engine's `{ type: 'Invalid Arguments' }`). */
export const INVALID_ARGUMENTS: Readonly<{ type: 'Invalid Arguments' }> = Object.freeze({
  type: 'Invalid Arguments',
});

/** Arithmetic or a numeric comparison on something that is not a number. */
export const NOT_A_NUMBER: Readonly<{ type: 'NaN' }> = Object.freeze({ type: 'NaN' });

/** A `reduce` accumulator holding a nested array or object. */
export const EXCEEDED_DEPTH: Readonly<{ type: 'Exceeded Allowed Depth' }> = Object.freeze({
  type: 'Exceeded Allowed Depth',
});
