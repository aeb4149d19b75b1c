import fc from 'fast-check';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';

/**
 * Protocols and artifacts built to make a kernel work as hard as it can (issue 11, item 2): each is
 * a whole `POST /v1/validate` body. They come from the failure modes an attacker reaches for —
 * backtracking regexes, in-place applicator fan-out, deep nesting, huge enums, quadratic keywords,
 * iterators nested over large arrays — not from what canonry happens to handle.
 */
export interface HostileCase {
  readonly name: string;
  readonly body: {
    artifact: unknown;
    agentic_protocol: Record<string, unknown>;
    generation_metadata_hash: string;
  };
}

const catchAll = (constraints: unknown, rules?: unknown[]) => ({
  slug: 'hostile',
  version: '1',
  constraints,
  labels: ['OK', 'NO'],
  rules: rules ?? [{ label: 'OK', condition: true }],
});

const body = (artifact: unknown, agentic_protocol: Record<string, unknown>) => ({
  artifact,
  agentic_protocol,
  generation_metadata_hash: EMPTY_METADATA_HASH,
});

/** `^(a+)+$` against `a…ab`: 2^n steps on a backtracking engine. */
export function backtrackingRegex(chars: number): HostileCase {
  return {
    name: `regex ^(a+)+$ over ${chars} characters`,
    body: body(`${'a'.repeat(chars)}b`, catchAll({ type: 'string', pattern: '^(a+)+$' })),
  };
}

/** `$defs` a0…an, each `anyOf` of two `$ref`s to the next: 2^n evaluations, 2^n errors. */
export function refFanOut(depth: number): HostileCase {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) {
    defs[`a${i}`] = { anyOf: [{ $ref: `#/$defs/a${i + 1}` }, { $ref: `#/$defs/a${i + 1}` }] };
  }
  defs[`a${depth}`] = { type: 'string' };
  return {
    name: `$ref/anyOf fan-out 2^${depth}`,
    body: body(1, catchAll({ $defs: defs, $ref: '#/$defs/a0' })),
  };
}

/** `allOf`/`anyOf` nested `depth` deep (as deep as the schema bound allows) around a failing leaf. */
export function nestedAllOf(depth: number): HostileCase {
  let schema: unknown = { type: 'string' };
  for (let i = 0; i < depth; i++) {
    schema = i % 2 ? { allOf: [schema, { not: { type: 'null' } }] } : { anyOf: [schema, false] };
  }
  return { name: `allOf nested ${depth} deep`, body: body(1, catchAll(schema)) };
}

/** An array of `items` strings, each checked against an enum of `members` strings. */
export function hugeEnum(members: number, items: number): HostileCase {
  const values = Array.from({ length: members }, (_, i) => `member-${i}`);
  return {
    name: `enum of ${members} over ${items} items`,
    body: body(
      Array.from({ length: items }, (_, i) => `nope-${i}`),
      catchAll({ type: 'array', items: { enum: values } }),
    ),
  };
}

/** uniqueItems over `count` distinct objects: pairwise comparison is quadratic. */
export function uniqueObjects(count: number): HostileCase {
  return {
    name: `uniqueItems over ${count} objects`,
    body: body(
      Array.from({ length: count }, (_, i) => ({ k: i, v: [i, { w: i }] })),
      catchAll({ type: 'array', uniqueItems: true }),
    ),
  };
}

/** `patterns` patternProperties against an object of `keys` keys. */
export function manyPatterns(patterns: number, keys: number): HostileCase {
  const patternProperties: Record<string, unknown> = {};
  for (let i = 0; i < patterns; i++) patternProperties[`^k${i}.*x$`] = { type: 'number' };
  const artifact: Record<string, number> = {};
  for (let i = 0; i < keys; i++) artifact[`k${i % patterns}${'y'.repeat(40)}${i}`] = i;
  return {
    name: `${patterns} patternProperties × ${keys} keys`,
    body: body(artifact, catchAll({ type: 'object', patternProperties })),
  };
}

/** `map` nested `depth` deep over an array of `length`: length^depth steps without a budget. */
export function nestedIterators(depth: number, length: number): HostileCase {
  let inner: unknown = { '+': [1, 1] };
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

/** `reduce` that merges its accumulator with every element: quadratic copying. */
export function mergingReduce(length: number): HostileCase {
  const rule = {
    reduce: [{ var: 'xs' }, { merge: [{ var: 'accumulator' }, [{ var: 'current' }]] }, []],
  };
  return {
    name: `reduce/merge over ${length} elements`,
    body: body(
      { xs: Array.from({ length }, (_, i) => i) },
      catchAll({ type: 'object' }, [
        { label: 'OK', condition: { '>': [{ var: 'xs.length' }, -1] } },
        { label: 'NO', condition: rule },
      ]),
    ),
  };
}

/** Every hostile case, at sizes that cost seconds or more on an unbounded kernel. */
export function worstCases(): HostileCase[] {
  return [
    backtrackingRegex(28),
    backtrackingRegex(5_000),
    refFanOut(16),
    refFanOut(24),
    nestedAllOf(30),
    hugeEnum(9_000, 20_000),
    uniqueObjects(20_000),
    manyPatterns(256, 15_000),
    nestedIterators(3, 2_000),
    mergingReduce(30_000),
  ];
}

/** A fast-check arbitrary over hostile bodies of varying sizes (for the fuzz generators). */
export function hostileBody(): fc.Arbitrary<HostileCase['body']> {
  return fc.oneof(
    fc.integer({ min: 20, max: 40 }).map((n) => backtrackingRegex(n).body),
    fc.integer({ min: 8, max: 22 }).map((n) => refFanOut(n).body),
    fc.integer({ min: 8, max: 31 }).map((n) => nestedAllOf(n).body),
    fc
      .tuple(fc.integer({ min: 100, max: 9_000 }), fc.integer({ min: 10, max: 5_000 }))
      .map(([m, n]) => hugeEnum(m, n).body),
    fc.integer({ min: 100, max: 5_000 }).map((n) => uniqueObjects(n).body),
    fc
      .tuple(fc.integer({ min: 1, max: 256 }), fc.integer({ min: 10, max: 5_000 }))
      .map(([p, k]) => manyPatterns(p, k).body),
    fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 10, max: 1_000 }))
      .map(([d, n]) => nestedIterators(d, n).body),
    fc.integer({ min: 100, max: 10_000 }).map((n) => mergingReduce(n).body),
  );
}
