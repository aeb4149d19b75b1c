import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import {
  BOUNDARY_KINDS,
  type CognitiveAsset,
  EXPORT_POLICIES,
  type GovernancePolicy,
  INFERENCE_POLICIES,
  type PrivacyScope,
  parseCognitiveAsset,
  REPLICATION_POLICIES,
  resolveGovernance,
  TRAINING_POLICIES,
  widerField,
} from '../../src/evolution/index.js';
import { asset } from './assets.js';

/** Small alphabets, so intersections are often non-empty and often contradictory. */
const who = (names: string[]) =>
  fc.oneof(fc.constant(['*']), fc.uniqueArray(fc.constantFrom(...names), { minLength: 1 }));
const constraint = fc.record({
  kind: fc.constantFrom(...BOUNDARY_KINDS),
  id: fc.constantFrom('x', 'y'),
});
const retention = fc.oneof(
  fc.constant('indefinite'),
  fc.integer({ min: 1, max: 10 }).map((n) => `expires-at:${n * 1000}`),
  fc.constantFrom('ref:a', 'ref:b'),
);

/** A policy whose scope is one its constraints support (the parser holds it to that). */
const policyArb: fc.Arbitrary<GovernancePolicy> = fc
  .record({
    constraints: fc.array(constraint, { maxLength: 3 }),
    allowed_principals: who(['alice', 'bob', 'carol']),
    allowed_roles: who(['owner', 'analyst', 'agent']),
    replication_policy: fc.constantFrom(...REPLICATION_POLICIES),
    inference_policy: fc.constantFrom(...INFERENCE_POLICIES),
    training_policy: fc.constantFrom(...TRAINING_POLICIES),
    export_policy: fc.constantFrom(...EXPORT_POLICIES),
    retention_policy: retention,
    policy_tags: fc.uniqueArray(fc.constantFrom('pii', 'medical', 'eu'), { maxLength: 2 }),
  })
  .map(({ constraints, ...rest }) => ({
    ...rest,
    privacy_scope: scopeFor(constraints.map((c) => c.kind)),
    privacy_boundary: { constraints },
  }));

function scopeFor(kinds: string[]): PrivacyScope {
  if (kinds.length === 0) return 'public';
  if (kinds.includes('user')) return 'user_private';
  if (kinds.includes('tenant')) return 'tenant_private';
  return kinds.length > 1 ? 'compound' : 'shared';
}

/** Assets read through the parser, as resolution receives them in use. */
const assetsArb = fc.array(policyArb, { minLength: 1, maxLength: 5 }).map((policies) =>
  policies.map((p, i) => {
    const parsed = parseCognitiveAsset(asset(`a:${i}`, p));
    if (!parsed.ok) throw new Error(parsed.issues[0]!.message);
    return parsed.value;
  }),
);

const outcome = (sources: readonly CognitiveAsset[]) => {
  const result = resolveGovernance(sources);
  return result.ok ? canonicalize(result.value) : result.issues[0]!.code;
};

describe('governance resolution, properties', () => {
  it('is never wider than any source, nor than any context policy', () => {
    fc.assert(
      fc.property(assetsArb, fc.option(policyArb, { nil: undefined }), (sources, request) => {
        const context =
          request === undefined ? [] : [{ source: 'request' as const, policy: request }];
        const result = resolveGovernance(sources, { context });
        if (!result.ok) return;
        for (const s of sources)
          expect(widerField(result.value.governance, s.governance)).toBeNull();
        if (request !== undefined) expect(widerField(result.value.governance, request)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('resolves often enough to mean something', () => {
    const resolved = fc
      .sample(assetsArb, { numRuns: 2000, seed: 17 })
      .filter((sources) => resolveGovernance(sources).ok).length;
    expect(resolved).toBeGreaterThan(400);
  });

  it('does not depend on the order of the sources, nor on one given twice', () => {
    fc.assert(
      fc.property(
        assetsArb.chain((sources) =>
          fc.tuple(
            fc.constant(sources),
            fc.shuffledSubarray(sources, { minLength: sources.length, maxLength: sources.length }),
            fc.array(fc.constantFrom(...sources), { maxLength: 3 }),
          ),
        ),
        ([sources, shuffled, repeats]) => {
          const expected = outcome(sources);
          expect(outcome(shuffled)).toBe(expected);
          expect(outcome([...repeats, ...shuffled, ...repeats])).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps every constraint and tag of every source, and names every source in provenance', () => {
    fc.assert(
      fc.property(assetsArb, (sources) => {
        const result = resolveGovernance(sources);
        if (!result.ok) return;
        const { governance, provenance } = result.value;
        const kept = new Set(
          governance.privacy_boundary.constraints.map((c) => `${c.kind}:${c.id}`),
        );
        for (const s of sources) {
          for (const c of s.governance.privacy_boundary.constraints)
            expect(kept.has(`${c.kind}:${c.id}`)).toBe(true);
          for (const t of s.governance.policy_tags) expect(governance.policy_tags).toContain(t);
          expect(provenance.derived_from).toContain(s.asset_id);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
