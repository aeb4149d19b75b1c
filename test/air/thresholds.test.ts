import { describe, expect, it } from 'vitest';
import {
  AGGRESSIVE_THRESHOLDS,
  AIR_THRESHOLDS,
  type AirComponent,
  type AirPacket,
  airStep,
  DEFAULT_AIR_POLICY,
  initialAirState,
} from '../../src/air/index.js';
import type { WindowSignals } from '../../src/dpe/index.js';
import { CONTEXT, claim, grounded, healthy, input } from './fixtures.js';

/** The components a packet actually carries. */
function carried(packet: AirPacket | null): AirComponent[] {
  if (packet === null) return [];
  const { iap } = packet;
  const on: AirComponent[] = [];
  if (iap.error_quarantine.length > 0) on.push('error_quarantine');
  if (packet.targeted_retrieval !== null) on.push('targeted_retrieval');
  if (iap.goal_residual !== null) on.push('goal_residual');
  if (iap.concept_freshness.length > 0) on.push('concept_freshness');
  if (iap.vocabulary_directives !== null) on.push('vocabulary_directives');
  if (packet.flow_bridge !== null) on.push('flow_bridge');
  if (iap.epistemic_map !== null) on.push('epistemic_map');
  if (iap.reasoning_scaffolds.length > 0) on.push('reasoning_scaffolds');
  return on.sort();
}

const fabrication = (s: WindowSignals): WindowSignals => ({
  ...s,
  fabrication_count: 1,
  contradictions: [
    {
      kind: 'fabrication',
      contradiction: 'number',
      claim_index: 0,
      claim: 'etcd stores 90 TB per node.',
      fact_id: null,
      fact: null,
      claimed: '90',
      expected: null,
      explanation: 'no fact supports the number',
    },
  ],
});

const distortion = (s: WindowSignals): WindowSignals => ({
  ...s,
  distortion_count: 1,
  contradictions: [
    {
      kind: 'distortion',
      contradiction: 'entity',
      claim_index: 0,
      claim: 'Kubernetes uses Consul as its distributed key-value store.',
      fact_id: 'etcd',
      fact: 'Kubernetes uses etcd as its distributed key-value store.',
      claimed: 'Consul',
      expected: 'etcd',
      explanation: 'entity differs',
    },
  ],
});

/** Parametric claims about etcd: grounding falls, and no claim is UNVERIFIABLE. */
const ungrounded =
  (pct: number) =>
  (s: WindowSignals): WindowSignals => ({
    ...s,
    claims: [
      grounded(0),
      grounded(1),
      claim(2, 'etcd replicates writes with Raft.', 'PARAMETRIC'),
      claim(3, 'etcd throughput depends on disk.', 'PARAMETRIC'),
    ],
    grounding_pct: pct,
  });

const incomplete =
  (score: number) =>
  (s: WindowSignals): WindowSignals => ({
    ...s,
    completeness: { score, covered: ['introduction'], uncovered: ['the watch API'] },
  });

const repetitive =
  (ratio: number) =>
  (s: WindowSignals): WindowSignals => ({
    ...s,
    repetition: {
      ratio,
      ngrams: [{ ngram: 'stores its state in the cluster', count: 4, earlier: false }],
      duplicate_sentences: [],
      duplicate_ratio: 0,
    },
  });

const disjointed =
  (flow: number) =>
  (s: WindowSignals): WindowSignals => ({ ...s, flow_score: flow });

const unverifiable =
  (n: number) =>
  (s: WindowSignals): WindowSignals => ({
    ...s,
    claims: [
      ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(grounded),
      ...Array.from({ length: n }, (_, i) =>
        claim(10 + i, `etcd handles ${i + 1}0,000 writes per second.`, 'UNVERIFIABLE'),
      ),
    ],
    unverifiable_count: n,
    grounding_pct: 10 / (10 + n),
  });

/** §2.2, row by row: the signal, its threshold, the component it (and only it) triggers. */
const ROWS: readonly {
  readonly row: string;
  readonly perturb: (s: WindowSignals) => WindowSignals;
  readonly expected: readonly AirComponent[];
}[] = [
  { row: 'fabrication_count > 0', perturb: fabrication, expected: ['error_quarantine'] },
  { row: 'distortion_count > 0', perturb: distortion, expected: ['error_quarantine'] },
  { row: 'grounding_pct < 0.60', perturb: ungrounded(0.5), expected: ['targeted_retrieval'] },
  { row: 'grounding_pct = 0.60', perturb: ungrounded(0.6), expected: [] },
  { row: 'completeness_score < 0.70', perturb: incomplete(0.69), expected: ['goal_residual'] },
  { row: 'completeness_score = 0.70', perturb: incomplete(0.7), expected: [] },
  // The blacklist the repeated n-gram starts is applied from then on (vocabulary directives).
  {
    row: 'repetition_ratio > 0.03',
    perturb: repetitive(0.031),
    expected: ['concept_freshness', 'vocabulary_directives'],
  },
  {
    row: 'repetition_ratio = 0.03',
    perturb: repetitive(0.03),
    expected: ['vocabulary_directives'],
  },
  { row: 'flow_score < 0.60', perturb: disjointed(0.59), expected: ['flow_bridge'] },
  { row: 'flow_score = 0.60', perturb: disjointed(0.6), expected: [] },
  // Three UNVERIFIABLE claims are also "a claim type UNVERIFIABLE": the scaffold row fires with it.
  {
    row: 'UNVERIFIABLE claims > 2',
    perturb: unverifiable(3),
    expected: ['epistemic_map', 'reasoning_scaffolds'],
  },
  { row: 'claim type UNVERIFIABLE', perturb: unverifiable(1), expected: ['reasoning_scaffolds'] },
  { row: 'UNVERIFIABLE claims = 2', perturb: unverifiable(2), expected: ['reasoning_scaffolds'] },
];

describe('§2.2: each threshold triggers its component and only it', () => {
  it('a healthy window triggers nothing and injects nothing', () => {
    const step = airStep(initialAirState(), input(healthy()), DEFAULT_AIR_POLICY);
    expect(step.detection.components).toEqual([]);
    expect(carried(step.packet)).toEqual([]);
    expect(step.injection).toBeNull();
    expect(step.tokens).toBe(0);
  });

  it.each(ROWS)('$row', ({ perturb, expected }) => {
    const step = airStep(initialAirState(), input(perturb(healthy())), {
      mode: 'adaptive',
      iap_budget: 4_096,
    });
    expect([...step.detection.components].sort()).toEqual([...expected].sort());
    expect(carried(step.packet)).toEqual([...expected].sort());
    if (expected.length > 0) expect(step.injection).toMatch(/^AIR QUALITY PACKET \(from window 1/);
  });

  it('the defaults are the values §2.2 and §3.3 name', () => {
    expect(AIR_THRESHOLDS).toEqual({
      grounding: 0.6,
      completeness: 0.7,
      repetition: 0.03,
      flow: 0.6,
      unverifiable: 2,
      maintenance: 0.85,
      max_windows: 5,
    });
    expect(DEFAULT_AIR_POLICY).toEqual({ mode: 'adaptive', iap_budget: 512 });
  });

  it('aggressive fires earlier and scaffolds PARAMETRIC claims', () => {
    const at = (mode: 'adaptive' | 'aggressive', s: WindowSignals) =>
      [
        ...airStep(initialAirState(), input(s), { mode, iap_budget: 4_096 }).detection.components,
      ].sort();
    const s = ungrounded(0.65)(incomplete(0.75)(disjointed(0.65)(repetitive(0.025)(healthy()))));
    expect(at('adaptive', s)).toEqual(['vocabulary_directives']);
    expect(at('aggressive', s)).toEqual([
      'concept_freshness',
      'flow_bridge',
      'goal_residual',
      'reasoning_scaffolds',
      'targeted_retrieval',
      'vocabulary_directives',
    ]);
    expect(AGGRESSIVE_THRESHOLDS.unverifiable).toBe(1);
    expect(at('aggressive', unverifiable(2)(healthy()))).toContain('epistemic_map');
  });

  it('quotes the evidence: prohibition with its correction, targeted facts, scaffold form', () => {
    const d = airStep(initialAirState(), input(distortion(healthy())), DEFAULT_AIR_POLICY);
    expect(d.packet!.iap.error_quarantine).toEqual([
      {
        original_claim: 'Kubernetes uses Consul as its distributed key-value store.',
        correction: 'Kubernetes uses etcd as its distributed key-value store.',
        prohibition:
          'Do NOT state or imply that Kubernetes uses Consul as its distributed key-value store. The verified fact is: Kubernetes uses etcd as its distributed key-value store.',
      },
    ]);
    const f = airStep(initialAirState(), input(fabrication(healthy())), DEFAULT_AIR_POLICY);
    expect(f.packet!.iap.error_quarantine[0]!.correction).toBeNull();
    expect(f.packet!.iap.error_quarantine[0]!.prohibition).toBe(
      'Do NOT state or imply that etcd stores 90 TB per node. No context fact supports it: leave it out.',
    );

    const g = airStep(initialAirState(), input(ungrounded(0.5)(healthy())), DEFAULT_AIR_POLICY);
    expect(g.packet!.targeted_retrieval!.fact_ids).toEqual(['tput', 'raft', 'etcd']);
    expect(g.packet!.targeted_retrieval!.injection).toContain(
      '[raft] etcd uses the Raft consensus',
    );

    const u = airStep(initialAirState(), input(unverifiable(1)(healthy())), DEFAULT_AIR_POLICY);
    const [scaffold] = u.packet!.iap.reasoning_scaffolds;
    expect(scaffold!.claim_type).toBe('performance statistic');
    expect(scaffold!.scaffold_prompt.split('\n')).toEqual([
      'REASONING REQUIREMENT for Window 2:',
      'In prior windows, the following claim types were asserted without derivable evidence:',
      '  - performance statistic (e.g., "etcd handles 10,000 writes per second")',
      'For ALL such claims in this window:',
      '  Step 1: State what the claim is',
      '  Step 2: Identify the source fact from the provided context that supports it (quote directly)',
      '  Step 3: State the logical connection between the source and the claim',
      '  Step 4: Only then write the claim in the response prose',
      'If no supporting source fact exists: DO NOT make the claim. Instead, write: "This requires verification against current sources."',
    ]);
    expect(CONTEXT.length).toBeGreaterThan(0);
  });

  it('the epistemic map is the §1.7 block over every window so far', () => {
    let state = initialAirState();
    state = airStep(state, input(healthy(1)), DEFAULT_AIR_POLICY).state;
    const step = airStep(state, input(unverifiable(3)(healthy(2))), DEFAULT_AIR_POLICY);
    const map = step.packet!.iap.epistemic_map!;
    expect(map.unverified_claims).toEqual([
      'etcd handles 10,000 writes per second.',
      'etcd handles 20,000 writes per second.',
      'etcd handles 30,000 writes per second.',
    ]);
    expect(map.map_injection).toMatch(
      /^ESTABLISHED FACTS \(context-grounded, verified\):\n {2}- Component \d+ stores its state in the cluster store \[verified: f\d+\]/,
    );
    expect(map.map_injection).toContain(
      'UNVERIFIED ASSERTIONS (parametric, proceed with caution):\n  - etcd handles 10,000 writes per second [UNVERIFIED: no source found]',
    );
  });
});
