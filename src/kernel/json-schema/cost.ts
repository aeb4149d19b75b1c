/**
 * The interpreter's cost model. Evaluation charges a {@link StepBudget} in steps, where one step is
 * about the cheapest work a schema can ask for (a keyword on a scalar, one item of a loop); work that
 * grows with the instance (string length, property count, subtree size) is charged in proportion,
 * always before it is done. The same coefficients, declared per keyword at compile time, give the
 * static bounds of bound.ts: a schema's cost at one location is a vector of {@link Coefficients}
 * over the location's measures.
 */

/** Fixed steps: a schema applied at a location, and one keyword of it. */
export const NODE_STEPS = 1;
export const KEYWORD_STEPS = 1;
/** One property or item visited by a loop, or counted by `Object.keys`. */
export const CHILD_STEPS = 1;
/** Characters hashed, compared or copied per step (memory-speed work). */
export const CHARS_PER_STEP = 64;
/** Characters scanned per step by a simple loop (code point counting). */
export const SCAN_CHARS_PER_STEP = 16;
/** One call into the RE2 engine, whatever the string. */
export const REGEX_CALL_STEPS = 32;
/** Steps per character per unit of a pattern's program weight (the engine's worst case). */
export const REGEX_STEPS_PER_WEIGHT = 4;
/** `multipleOf` on a number beyond 2^53 or a fraction: exact decimal arithmetic on BigInts. */
export const DECIMAL_STEPS = 64;

/**
 * A walk over a JSON value that hashes or compares it (const, enum, uniqueItems) charges at most this
 * many steps per unit of the value's weight (values, keys, characters; see jsonWeight): one per value
 * popped, one per key or item listed, one per CHARS_PER_STEP characters, each rounded up.
 */
export const WALK_STEPS_PER_WEIGHT = 8;

/** Steps to test a string of `length` UTF-16 units against a pattern of program `weight`. */
export function regexSteps(length: number, weight: number): number {
  return REGEX_CALL_STEPS + length * weight * REGEX_STEPS_PER_WEIGHT;
}

/**
 * Components of a cost vector. The first six apply to both engines; the `AJV_*` ones are work only
 * Ajv does (its enum compares every member, its uniqueItems compares every pair).
 */
export const ONE = 0; // × 1 per location
export const CHILDREN = 1; // × the location's property or item count
export const KEY_CHARS = 2; // × the total length of the location's property names
export const CHARS = 3; // × the location's string length
export const SIZE = 4; // × the location's subtree weight (values, keys and their characters)
export const CHARS2 = 5; // × the square of the location's string length
export const AJV_ONE = 6;
export const AJV_CHILDREN = 7;
export const AJV_SIZE = 8;
export const AJV_PAIRS = 9; // × items × subtree weight (arrays)
export const COMPONENTS = 10;

/** Which artifact measure (see stats.ts) each component multiplies. */
export const MEASURE_OF: readonly number[] = [0, 1, 2, 3, 4, 5, 0, 1, 4, 6];

/** A cost vector, indexed by the components above. */
export type Coefficients = Float64Array;

/** A zero vector. */
export function zero(): Coefficients {
  return new Float64Array(COMPONENTS);
}

/** `into += other`, componentwise. */
export function addInto(into: Coefficients, other: Coefficients): void {
  for (let i = 0; i < COMPONENTS; i++) into[i]! += other[i]!;
}

/** `into = max(into, other)`, componentwise. */
export function maxInto(into: Coefficients, other: Coefficients): void {
  for (let i = 0; i < COMPONENTS; i++) if (other[i]! > into[i]!) into[i] = other[i]!;
}
