/**
 * The interpreter's cost model. Evaluation charges a {@link StepBudget} in steps, where one step is
 * about the cheapest work a schema can ask for (a keyword on a scalar, one item of a loop); work that
 * grows with the instance (string length, property count, subtree size) is charged in proportion,
 * always before it is done. The same coefficients, declared per keyword at compile time, give the
 * static bounds of bound.ts: a schema's cost at one location is a vector of {@link Coefficients}
 * over the location's measures.
 */

/**
 * Fixed steps: a schema applied at a location, and one keyword of it. A schema costs more than its
 * keywords: entering it is a call deeper, and in a large schema its node is often out of cache.
 */
export const NODE_STEPS = 4;
export const KEYWORD_STEPS = 1;
/** One property or item visited by a loop. */
export const CHILD_STEPS = 1;
/**
 * One property name listed (`Object.keys`, `for…in`). V8 lists the names of an object with more
 * than ~1,000 properties (a dictionary) by sorting them: up to ~250 ns a name, measured.
 */
export const KEY_STEPS = 32;
/** One own-property lookup by name (`Object.hasOwn`), which is a hash lookup in a dictionary. */
export const LOOKUP_STEPS = 2;
/** One value added to a Set (uniqueItems). */
export const SET_STEPS = 16;
/** Characters escaped, hashed or copied per step when a value is turned into its canonical text. */
export const CHARS_PER_STEP = 8;
/** Characters scanned per step by a simple loop (code point counting). */
export const SCAN_CHARS_PER_STEP = 4;
/** One call into the RE2 engine, whatever the string. */
export const REGEX_CALL_STEPS = 64;
/** Steps per character per instruction of a pattern's program (the NFA's worst case). */
export const REGEX_STEPS_PER_WEIGHT = 4;
/** `multipleOf` on a number beyond 2^53 or a fraction: exact decimal arithmetic on BigInts. */
export const DECIMAL_STEPS = 256;
/** One entry of the dynamic scope walked by a `$dynamicRef`. */
export const DYNAMIC_STEPS = 8;

/**
 * A walk over a JSON value that hashes or compares it (const, enum, uniqueItems) charges at most this
 * many steps per unit of the value's weight (values, keys, characters; see jsonWeight): one per value
 * popped, one per key or item listed, one per CHARS_PER_STEP characters, each rounded up.
 */
export const WALK_STEPS_PER_WEIGHT = KEY_STEPS + 24;

/** One value popped by such a walk (a type test, a string or number turned into text). */
export const WALK_VALUE_STEPS = 6;

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

/** A cost vector, indexed by the components above (a plain array: a typed array per schema node
 * would put a separate backing store beside every node, measurably slowing evaluation). */
export type Coefficients = number[];

/** A zero vector. */
export function zero(): Coefficients {
  return new Array<number>(COMPONENTS).fill(0);
}

/** `into += other`, componentwise. */
export function addInto(into: Coefficients, other: Coefficients): void {
  for (let i = 0; i < COMPONENTS; i++) into[i]! += other[i]!;
}

/** `into = max(into, other)`, componentwise. */
export function maxInto(into: Coefficients, other: Coefficients): void {
  for (let i = 0; i < COMPONENTS; i++) if (other[i]! > into[i]!) into[i] = other[i]!;
}
