import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, type JsonValue } from '../../src/core/index.js';
import { type AgenticProtocol, compileProtocol } from '../../src/kernel/protocol.js';
import { resolve } from '../../src/kernel/resolve.js';
import { VERDICT_CLASSES } from '../../src/kernel/verdict.js';
import { refundProtocol } from './refund-protocol.js';

const RUNS = 400;

const path = fc.constantFrom(
  'amount',
  'a',
  'a.b',
  'list',
  'list.0',
  'missing',
  '',
  '__proto__',
  'constructor.name',
);
const scalar = fc.oneof(
  fc.integer({ min: -100, max: 100 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constant(null),
);

/** Valid conditions: comparisons, and/or/if, var paths, arithmetic that may throw, a few array operators. */
const { condition } = fc.letrec<{ condition: JsonValue; expr: JsonValue }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    path.map((p) => ({ var: p })),
    fc
      .tuple(fc.constantFrom('+', '-', '*', '/', '%'), tie('expr'), tie('expr'))
      .map(([op, a, b]) => ({ [op]: [a, b] })),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => ({ cat: [a, b] })),
  ),
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    path.map((p) => ({ var: p })),
    fc
      .tuple(
        fc.constantFrom('<', '<=', '>', '>=', '==', '===', '!=', '!=='),
        tie('expr'),
        tie('expr'),
      )
      .map(([op, a, b]) => ({ [op]: [a, b] })),
    fc.array(tie('condition'), { maxLength: 3 }).map((items) => ({ and: items })),
    fc.array(tie('condition'), { maxLength: 3 }).map((items) => ({ or: items })),
    tie('condition').map((c) => ({ '!': [c] })),
    fc.tuple(tie('condition'), tie('condition'), tie('condition')).map((args) => ({ if: args })),
    fc.tuple(tie('expr')).map(([e]) => ({ in: [e, { var: 'list' }] })),
    tie('condition').map((c) => ({ some: [{ var: 'list' }, c] })),
    path.map((p) => ({ missing: [p] })),
  ),
}));

const protocolArb = fc
  .record({
    labels: fc.uniqueArray(fc.constantFrom('A', 'B', 'C', 'D'), { minLength: 1, maxLength: 4 }),
    conditions: fc.array(condition, { minLength: 1, maxLength: 6 }),
    picks: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    resolution: fc.constantFrom(undefined, 'first-match' as const, 'exclusive' as const),
    strict: fc.boolean(),
  })
  .map(
    ({ labels, conditions, picks, resolution, strict }): AgenticProtocol => ({
      slug: 'random',
      version: '1',
      constraints: strict ? (refundProtocol().constraints as AgenticProtocol['constraints']) : true,
      labels,
      rules: conditions.map((c, i) => ({
        label: labels[(picks[i] ?? 0) % labels.length] as string,
        condition: c,
      })),
      ...(resolution === undefined ? {} : { resolution }),
    }),
  );

const shaped = fc.record(
  {
    amount: fc.oneof(scalar, fc.jsonValue({ maxDepth: 1 })),
    a: fc.jsonValue({ maxDepth: 2 }),
    list: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  },
  { requiredKeys: [] },
);
const artifactArb = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  shaped,
  fc.record({ amount: fc.double() }),
);

/** A deterministic pseudo-random deep shuffle of every object's keys. */
function shuffleKeys<T>(value: T, seed: number): T {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
    }
    const out: Record<string, unknown> = {};
    for (const [k, item] of entries)
      Object.defineProperty(out, k, {
        value: walk(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return walk(value) as T;
}

describe('resolve (property-based)', () => {
  it('never throws and always returns exactly one class with a declared label iff CONFORMANT', () => {
    fc.assert(
      fc.property(protocolArb, fc.oneof(artifactArb, fc.anything()), (bundle, artifact) => {
        const p = compileProtocol(bundle);
        const verdict = resolve(artifact, p);
        expect(VERDICT_CLASSES).toContain(verdict.class);
        expect(verdict.protocolHash).toBe(p.hash);
        if (verdict.class === 'CONFORMANT') expect(bundle.labels).toContain(verdict.label);
        else expect(verdict.label).toBeNull();
        let hash: string | null = null;
        try {
          hash = contentHash(artifact);
        } catch {
          expect(verdict.class).toBe('INVALID_REQUEST');
        }
        expect(verdict.artifactHash).toBe(hash);
      }),
      { numRuns: RUNS },
    );
  });

  it('gives the same verdict and artifact hash whatever the artifact key order', () => {
    fc.assert(
      fc.property(protocolArb, artifactArb, fc.integer(), (bundle, artifact, seed) => {
        const p = compileProtocol(bundle);
        expect(resolve(shuffleKeys(artifact, seed), p)).toEqual(resolve(artifact, p));
      }),
      { numRuns: RUNS },
    );
  });

  it('gives the same protocol hash (and compiled protocol) whatever the bundle key order', () => {
    fc.assert(
      fc.property(protocolArb, fc.integer(), (bundle, seed) => {
        const shuffled = shuffleKeys(bundle, seed);
        expect(compileProtocol(shuffled).hash).toBe(compileProtocol(bundle).hash);
        expect(compileProtocol(shuffled)).toBe(compileProtocol(bundle));
        expect(contentHash(shuffled)).toBe(compileProtocol(bundle).hash);
      }),
      { numRuns: RUNS },
    );
  });
});
