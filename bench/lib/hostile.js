// @ts-check
/**
 * Protocols and artifacts built to make a kernel work as hard as it can (issue 11, item 2): each is
 * a whole `POST /v1/validate` body. They come from the failure modes an attacker reaches for —
 * backtracking regexes, in-place applicator fan-out, deep nesting, huge enums, quadratic keywords,
 * iterators nested over large arrays — not from what canonry happens to handle. The worst-case
 * bench (bench/kernel/worst-case.js) and the tests (test/helpers/hostile.ts) share them.
 */

/** The generation-metadata hash of `{}`. */
export const EMPTY_METADATA_HASH =
  'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a';

/**
 * @typedef {{ artifact: unknown, agentic_protocol: Record<string, unknown>, generation_metadata_hash: string }} HostileBody
 * @typedef {{ name: string, body: HostileBody }} HostileCase
 */

/** @param {unknown} constraints @param {unknown[]} [rules] */
const catchAll = (constraints, rules) => ({
  slug: 'hostile',
  version: '1',
  constraints,
  labels: ['OK', 'NO'],
  rules: rules ?? [{ label: 'OK', condition: true }],
});

/** @param {unknown} artifact @param {Record<string, unknown>} agentic_protocol @returns {HostileBody} */
const body = (artifact, agentic_protocol) => ({
  artifact,
  agentic_protocol,
  generation_metadata_hash: EMPTY_METADATA_HASH,
});

/** `^(a+)+$` against `a…ab`: 2^n steps on a backtracking engine. @param {number} chars @returns {HostileCase} */
export function backtrackingRegex(chars) {
  return {
    name: `regex ^(a+)+$ over ${chars} characters`,
    body: body(`${'a'.repeat(chars)}b`, catchAll({ type: 'string', pattern: '^(a+)+$' })),
  };
}

/**
 * `$defs` a0…an, each `anyOf` of two `$ref`s to the next: 2^n evaluations and 2^n errors.
 * @param {number} depth @returns {HostileCase}
 */
export function refFanOut(depth) {
  /** @type {Record<string, unknown>} */
  const defs = {};
  for (let i = 0; i < depth; i++) {
    defs[`a${i}`] = { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
  }
  defs[`a${depth}`] = { type: 'string' };
  return {
    name: `$ref/anyOf fan-out 2^${depth}`,
    body: body(1, catchAll({ $defs: defs, $ref: '#/$defs/a0' })),
  };
}

/**
 * `anyOf`/`allOf` nested `depth` deep (as deep as the schema bound allows) around a failing leaf.
 * @param {number} depth @returns {HostileCase}
 */
export function nestedAllOf(depth) {
  /** @type {unknown} */
  let schema = { type: 'string' };
  for (let i = 0; i < depth; i++) {
    schema = i % 2 ? { allOf: [schema, { not: { type: 'null' } }] } : { anyOf: [schema, false] };
  }
  return { name: `anyOf/allOf nested ${depth} deep`, body: body(1, catchAll(schema)) };
}

/** An array of `items` strings checked against an enum of `members` strings. @param {number} members @param {number} items @returns {HostileCase} */
export function hugeEnum(members, items) {
  const values = Array.from({ length: members }, (_, i) => `member-${i}`);
  return {
    name: `enum of ${members} over ${items} items`,
    body: body(
      Array.from({ length: items }, (_, i) => `nope-${i}`),
      catchAll({ type: 'array', items: { enum: values } }),
    ),
  };
}

/** uniqueItems over `count` distinct objects: pairwise comparison is quadratic. @param {number} count @returns {HostileCase} */
export function uniqueObjects(count) {
  return {
    name: `uniqueItems over ${count} objects`,
    body: body(
      Array.from({ length: count }, (_, i) => ({ k: i, v: [i, { w: i }] })),
      catchAll({ type: 'array', uniqueItems: true }),
    ),
  };
}

/** `patterns` patternProperties against an object of `keys` keys. @param {number} patterns @param {number} keys @returns {HostileCase} */
export function manyPatterns(patterns, keys) {
  /** @type {Record<string, unknown>} */
  const patternProperties = {};
  for (let i = 0; i < patterns; i++) patternProperties[`^k${i}.*x$`] = { type: 'number' };
  /** @type {Record<string, number>} */
  const artifact = {};
  for (let i = 0; i < keys; i++) artifact[`k${i % patterns}${'y'.repeat(40)}${i}`] = i;
  return {
    name: `${patterns} patternProperties × ${keys} keys`,
    body: body(artifact, catchAll({ type: 'object', patternProperties })),
  };
}

/** `map` nested `depth` deep over an array of `length`: length^depth steps unbudgeted. @param {number} depth @param {number} length @returns {HostileCase} */
export function nestedIterators(depth, length) {
  /** @type {unknown} */
  let inner = { '+': [1, 1] };
  for (let i = 0; i < depth; i++) inner = { map: [{ val: [[i + 1], 'xs'] }, inner] };
  const rule = { some: [{ var: 'xs' }, { '!!': [inner] }] };
  return {
    name: `map nested ${depth} deep over ${length} elements`,
    body: body(
      { xs: Array.from({ length }, (_, i) => i) },
      catchAll({ type: 'object' }, [
        { label: 'OK', condition: rule },
        { label: 'NO', condition: true },
      ]),
    ),
  };
}

/** `reduce` that merges its accumulator with every element: quadratic copying. @param {number} length @returns {HostileCase} */
export function mergingReduce(length) {
  const rule = {
    reduce: [{ var: 'xs' }, { merge: [{ var: 'accumulator' }, [{ var: 'current' }]] }, []],
  };
  return {
    name: `reduce/merge over ${length} elements`,
    body: body(
      { xs: Array.from({ length }, (_, i) => i) },
      catchAll({ type: 'object' }, [
        { label: 'NO', condition: rule },
        { label: 'OK', condition: true },
      ]),
    ),
  };
}

/**
 * Every hostile case, at sizes that cost seconds or more on an unbounded kernel: the largest a body
 * may carry (32,768 values, members counting twice, 4,096 distinct member names), and for the
 * shapes whose cost grows with size, one size past those bounds too (refused before parsing).
 * @returns {HostileCase[]}
 */
export function worstCases() {
  return [
    backtrackingRegex(28),
    backtrackingRegex(5_000),
    refFanOut(16),
    refFanOut(24),
    nestedAllOf(30),
    hugeEnum(4_000, 20_000),
    uniqueObjects(3_000),
    uniqueObjects(20_000),
    manyPatterns(256, 4_000),
    manyPatterns(256, 15_000),
    nestedIterators(3, 2_000),
    mergingReduce(30_000),
  ];
}
