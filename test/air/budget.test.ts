import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AIR_LIMITS,
  type AirState,
  airStep,
  initialAirState,
  parseAirPacket,
  parseAirState,
  parseIap,
  refitPacket,
  renderPacket,
} from '../../src/air/index.js';
import { countTokens } from '../../src/core/index.js';
import type { ClaimSignal, ContradictionSignal, WindowSignals } from '../../src/dpe/index.js';
import { CONTEXT, input } from './fixtures.js';

const WORDS = [
  'etcd',
  'raft',
  'leader',
  'election',
  'cluster',
  'throughput',
  'latency',
  'replica',
  'quorum',
  'snapshot',
  'watch',
  'lease',
  'kubernetes',
  'scheduler',
  'controller',
  'disk',
  'network',
  'node',
];
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 18 })
  .map((w) => `${w.join(' ')}.`);
const unit = fc.double({ min: 0, max: 1, noNaN: true });

const claimArb = (index: number): fc.Arbitrary<ClaimSignal> =>
  fc.record({
    index: fc.constant(index),
    text: sentence,
    attribution: fc.constantFrom('CONTEXT_GROUNDED', 'PARAMETRIC', 'UNVERIFIABLE' as const),
    confidence: unit,
    fact_id: fc.option(fc.constantFrom(...CONTEXT.map((f) => f.id)), { nil: null }),
    claim_type: fc.constantFrom('statistic', 'comparison', 'version', 'architecture'),
    explanation: fc.constant(''),
  });

const contradictionArb: fc.Arbitrary<ContradictionSignal> = fc.record({
  kind: fc.constantFrom('fabrication', 'distortion' as const),
  contradiction: fc.constantFrom('number', 'unit', 'negation', 'entity' as const),
  claim_index: fc.nat(20),
  claim: sentence,
  fact_id: fc.option(fc.constantFrom('etcd', 'raft'), { nil: null }),
  fact: fc.option(sentence, { nil: null }),
  claimed: fc.constant('x'),
  expected: fc.constant(null),
  explanation: fc.constant(''),
});

const signalsArb = (window_number: number): fc.Arbitrary<WindowSignals> =>
  fc
    .record({
      n: fc.nat(12),
      contradictions: fc.array(contradictionArb, { maxLength: 6 }),
      ratio: unit.map((r) => r / 5),
      ngrams: fc.array(
        fc.array(fc.constantFrom(...WORDS), { minLength: 6, maxLength: 6 }).map((w) => w.join(' ')),
        { maxLength: 10 },
      ),
      completeness: unit,
      uncovered: fc.array(sentence, { maxLength: 6 }),
      flow: unit,
      quality: unit,
    })
    .chain((r) =>
      fc.tuple(...Array.from({ length: r.n }, (_, i) => claimArb(i))).map((claims) => {
        const grounded = claims.filter((c) => c.attribution === 'CONTEXT_GROUNDED').length;
        return {
          window_number,
          claims,
          contradictions: r.contradictions,
          fabrication_count: r.contradictions.filter((c) => c.kind === 'fabrication').length,
          distortion_count: r.contradictions.filter((c) => c.kind === 'distortion').length,
          grounding_pct: claims.length === 0 ? 1 : grounded / claims.length,
          unverifiable_count: claims.filter((c) => c.attribution === 'UNVERIFIABLE').length,
          repetition: {
            ratio: r.ratio,
            ngrams: r.ngrams.map((ngram) => ({ ngram, count: 2, earlier: false })),
            duplicate_sentences: [],
            duplicate_ratio: 0,
          },
          completeness: { score: r.completeness, covered: [], uncovered: r.uncovered },
          flow_score: r.flow,
          quality: r.quality,
          truncated: false,
        } satisfies WindowSignals;
      }),
    );

/** A session of 1–4 windows of random signals. */
const sessionArb = fc
  .integer({ min: 1, max: 4 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => signalsArb(i + 1))));

/** A session, a budget and a mode: what each budget property draws. */
const budgetCaseArb = [
  sessionArb,
  fc.integer({ min: 0, max: 900 }),
  fc.constantFrom('adaptive', 'aggressive' as const),
] as const;

function run(windows: readonly WindowSignals[], budget: number, mode: 'adaptive' | 'aggressive') {
  let state: AirState = initialAirState();
  let last = airStep(state, input(windows[0]!), { mode, iap_budget: budget });
  state = last.state;
  for (const w of windows.slice(1)) {
    last = airStep(state, input(w), { mode, iap_budget: budget });
    state = last.state;
  }
  return last;
}

describe('the IAP budget (§3.3)', () => {
  it('never exceeds the budget, over random signal sets and budgets', () => {
    fc.assert(
      fc.property(...budgetCaseArb, (windows, budget, mode) => {
        const step = run(windows, budget, mode);
        expect(step.tokens).toBeLessThanOrEqual(budget);
        if (step.injection !== null) {
          expect(countTokens(step.injection)).toBe(step.tokens);
          expect(renderPacket(step.packet!)).toBe(step.injection);
        } else {
          expect(step.tokens).toBe(0);
        }
        if (step.packet !== null) {
          parseAirPacket(step.packet);
          parseIap(step.packet.iap);
        }
        // The state is plain JSON and survives the journal.
        expect(parseAirState(JSON.parse(JSON.stringify(step.state)))).toEqual(step.state);
      }),
      { numRuns: 60, seed: 18 },
    );
  });

  it('keeps the quarantine whole while pressure drops everything else', () => {
    fc.assert(
      fc.property(sessionArb, (windows) => {
        const roomy = run(windows, 16_384, 'adaptive');
        if (roomy.packet === null) return;
        const quarantine = roomy.packet.iap.error_quarantine;
        // What the quarantine alone costs: the packet with nothing else.
        const alone = renderPacket({
          iap: {
            ...roomy.packet.iap,
            concept_freshness: [],
            reasoning_scaffolds: [],
            goal_residual: null,
            epistemic_map: null,
            vocabulary_directives: null,
          },
          targeted_retrieval: null,
          flow_bridge: null,
        });
        const cost = alone.length === 0 ? 0 : countTokens(alone);
        const tight = run(windows, cost, 'adaptive');
        expect(tight.packet!.iap.error_quarantine).toEqual(quarantine);
        expect(tight.tokens).toBeLessThanOrEqual(cost);
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('when the quarantine alone is over budget it keeps the newest items that fit', () => {
    const contradictions: ContradictionSignal[] = Array.from({ length: 10 }, (_, i) => ({
      kind: 'fabrication',
      contradiction: 'number',
      claim_index: i,
      claim: `etcd stores ${i + 1} petabytes on every single node of the cluster.`,
      fact_id: null,
      fact: null,
      claimed: String(i + 1),
      expected: null,
      explanation: '',
    }));
    const signals: WindowSignals = {
      window_number: 1,
      truncated: false,
      claims: [],
      contradictions,
      fabrication_count: 10,
      distortion_count: 0,
      grounding_pct: 0.2,
      unverifiable_count: 5,
      repetition: { ratio: 0.2, ngrams: [], duplicate_sentences: [], duplicate_ratio: 0 },
      completeness: { score: 0.1, covered: [], uncovered: ['everything'] },
      flow_score: 0.1,
      quality: 0.1,
    };
    const step = airStep(initialAirState(), input(signals), { mode: 'adaptive', iap_budget: 120 });
    const kept = step.packet!.iap.error_quarantine.map((q) => q.original_claim);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(10);
    expect(kept).toEqual(contradictions.slice(10 - kept.length).map((c) => c.claim));
    expect(step.tokens).toBeLessThanOrEqual(120);
    expect(step.dropped.error_quarantine).toBe(10 - kept.length);
    // Nothing else survives before the quarantine is cut.
    expect(step.packet!.iap.goal_residual).toBeNull();
    expect(step.packet!.flow_bridge).toBeNull();
  });

  it('a zero budget injects nothing but still keeps the state', () => {
    const step = run([fc.sample(signalsArb(1), { numRuns: 1, seed: 3 })[0]!], 0, 'aggressive');
    expect(step.injection).toBeNull();
    expect(step.tokens).toBe(0);
    expect(step.state.window_count).toBe(1);
  });
});

describe('a built packet held to a smaller budget (refitPacket, §6.1)', () => {
  it('fits, stays a valid packet, gives up the quarantine last and keeps its newest items', () => {
    fc.assert(
      fc.property(...budgetCaseArb, (windows, budget, mode) => {
        const built = run(windows, AIR_LIMITS.maxBudget, mode);
        if (built.packet === null) return;
        const r = refitPacket(built.packet, budget);
        expect(r.tokens).toBeLessThanOrEqual(budget);
        if (r.text === '') expect(r.tokens).toBe(0);
        else {
          expect(r.text).toBe(renderPacket(r.packet));
          expect(countTokens(r.text)).toBe(r.tokens);
        }
        parseAirPacket(r.packet);
        const before = built.packet.iap.error_quarantine;
        const after = r.packet.iap.error_quarantine;
        expect(before.slice(before.length - after.length)).toEqual(after);
        // The quarantine loses items only once every other component is gone.
        if (after.length < before.length) {
          expect(r.packet.iap.goal_residual).toBeNull();
          expect(r.packet.targeted_retrieval).toBeNull();
          expect(r.packet.iap.epistemic_map).toBeNull();
        }
        if (built.tokens <= budget) expect(r.text).toBe(built.injection ?? '');
      }),
      { numRuns: 60, seed: 30 },
    );
  });
});
