import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import { sealCso } from '../../src/relay/cso-seal.js';
import { type MergeContext, mergeContribution } from '../../src/relay/merge.js';
import type {
  CognitiveStateObject,
  Contribution,
  FactContribution,
} from '../../src/relay/types.js';
import { verifyCso } from '../../src/relay/verify.js';
import { contribution, GENESIS, GOAL, SESSION, seal } from './cso-fixtures.js';

const ctx = (window_number: number): MergeContext => ({
  session_id: SESSION.session_id,
  window_number,
  genesis: GENESIS,
  goal_state: GOAL,
});

/** A few statements, each in several wordings of one normal form (case, spaces, a full stop). */
const SUBJECTS = ['the cluster has 3 nodes', 'tls is on', 'the cache is warm', 'port 2379 is open'];
const wording = fc.tuple(fc.nat({ max: SUBJECTS.length - 1 }), fc.nat({ max: 3 })).map(([s, w]) => {
  const text = SUBJECTS[s]!;
  return [text, text.toUpperCase(), `${text}.`, text.replace(/ /g, '  ')][w]!;
});

/** What one window says about the facts: picks of prior facts by position, and new statements. */
const windowPlan = fc.record({
  byId: fc.array(fc.nat(), { maxLength: 6 }),
  byWording: fc.array(fc.nat(), { maxLength: 4 }),
  supersede: fc.option(fc.nat(), { nil: undefined }),
  fresh: fc.array(wording, { maxLength: 4 }),
  unique: fc.array(fc.nat({ max: 1_000 }), { maxLength: 3 }),
  claims: fc.array(wording, { maxLength: 2 }),
});

type Plan = typeof windowPlan extends fc.Arbitrary<infer T> ? T : never;

function contributionOf(prior: CognitiveStateObject | null, plan: Plan, n: number): Contribution {
  const facts = prior?.established_facts ?? [];
  const pick = (i: number) => facts[i % Math.max(facts.length, 1)];
  const out: FactContribution[] = [];
  for (const i of plan.byId) {
    const f = pick(i);
    if (f) out.push({ fact_id: f.fact_id, statement: f.statement });
  }
  // Restated by another wording of the same normal form, without the id.
  for (const i of plan.byWording) {
    const f = pick(i);
    if (f) out.push({ statement: `  ${f.statement.toUpperCase()}.` });
  }
  const superseded = plan.supersede === undefined ? undefined : pick(plan.supersede);
  if (superseded) {
    out.push({
      statement: `correction ${n}: ${superseded.statement}`,
      supersedes: [superseded.fact_id],
    });
  }
  for (const s of plan.fresh) out.push({ statement: s });
  for (const u of plan.unique) out.push({ statement: `observation ${u} of window ${n}` });
  return contribution({ facts: out });
}

/** One window: merge, verify, seal; the figures that must not depend on what was cached. */
function relay(prior: CognitiveStateObject | null, plan: Plan) {
  const n = (prior?.window_number ?? 0) + 1;
  const merged = mergeContribution(prior, contributionOf(prior, plan, n), ctx(n));
  const { cso, verification } = verifyCso(prior, merged.draft, {
    uncapturedClaims: plan.claims,
    retired: merged.retired,
  });
  const sealed = sealCso(cso, seal);
  const { draft: _draft, ...result } = merged;
  return { sealed, seen: canonicalize({ result, verification, cso: sealed }) };
}

describe("a window's statement index, derived from its prior's", () => {
  it('merges as an index made afresh would, window after window', () => {
    fc.assert(
      fc.property(fc.array(windowPlan, { minLength: 2, maxLength: 10 }), (plans) => {
        // Carried: each window starts from the object the last one sealed (indexes derived).
        // Afresh: from a copy of it, which no cache knows (every index made from its list).
        let carried: CognitiveStateObject | null = null;
        let afresh: CognitiveStateObject | null = null;
        for (const plan of plans) {
          const a = relay(carried, plan);
          const b = relay(afresh === null ? null : structuredClone(afresh), plan);
          expect(a.seen).toBe(b.seen);
          carried = a.sealed;
          afresh = b.sealed;
        }
      }),
      { numRuns: 300 },
    );
  });
});
