import { describe, expect, it } from 'vitest';
import { AIR_LIMITS, airStep, DEFAULT_AIR_POLICY, initialAirState } from '../../src/air/index.js';
import { CanonryError } from '../../src/core/index.js';
import type { ContextFact, WindowSignals } from '../../src/dpe/index.js';
import { CONTEXT, claim, healthy, input } from './fixtures.js';

/** A window that distorts the etcd fact and states a section the context does not cover. */
function flagged(window_number: number): WindowSignals {
  const base = healthy(window_number);
  const distortion = (claim_index: number, text: string, fact_id: string, fact: string) => ({
    kind: 'distortion' as const,
    contradiction: 'entity' as const,
    claim_index,
    claim: text,
    fact_id,
    fact,
    claimed: 'x',
    expected: 'y',
    explanation: '',
  });
  return {
    ...base,
    claims: [
      claim(0, 'Kubernetes uses Consul as its store.', 'PARAMETRIC'),
      claim(1, 'Section Constraints is drafted.', 'PARAMETRIC'),
      claim(2, 'Consul keeps 48 GB of cluster state in memory.', 'UNVERIFIABLE'),
    ],
    contradictions: [
      distortion(
        0,
        'Kubernetes uses Consul as its store.',
        'etcd',
        'Kubernetes uses etcd as its distributed key-value store.',
      ),
      distortion(1, 'Section Constraints is drafted.', 'f0', CONTEXT[0]!.statement),
    ],
    distortion_count: 2,
    grounding_pct: 0,
    unverifiable_count: 1,
  };
}

/** The first window's step, its next window's context given. */
const stepWith = (signals: WindowSignals, next: readonly ContextFact[], context = CONTEXT) =>
  airStep(
    initialAirState(),
    { ...input(signals, context), next_context: next },
    DEFAULT_AIR_POLICY,
  );

const quarantined = (step: ReturnType<typeof airStep>) =>
  step.state.quarantine.map((q) => q.original_claim);

describe("AIR and the next window's context", () => {
  it('releases a quarantined claim the next context states, keeps the rest', () => {
    const without = airStep(initialAirState(), input(flagged(1)), DEFAULT_AIR_POLICY);
    expect(quarantined(without)).toEqual([
      'Kubernetes uses Consul as its store.',
      'Section Constraints is drafted.',
    ]);

    // The window established the section (its contribution): the next context states it, in
    // another case and without the full stop.
    const next: ContextFact[] = [
      ...CONTEXT,
      { id: 'f_s2', statement: 'section constraints is drafted', source: 'cso' },
    ];
    const step = stepWith(flagged(1), next);
    expect(quarantined(step)).toEqual(['Kubernetes uses Consul as its store.']);
    expect(step.headers['CRP-AIR-Error-Quarantine-Count']).toBe('1');
    expect(step.injection).toContain('Do NOT state or imply that Kubernetes uses Consul');
    expect(step.injection).not.toContain('Section Constraints');

    // An entry an earlier window left is released when a later context comes to state it.
    const later = airStep(
      without.state,
      {
        ...input(healthy(2)),
        next_context: [
          ...next,
          { id: 'k', statement: 'Kubernetes uses Consul as its store', source: 'cso' },
        ],
      },
      DEFAULT_AIR_POLICY,
    );
    expect(quarantined(later)).toEqual([]);
  });

  it('releases a claim the next context grounds in other words, not one it contradicts', () => {
    const said = (claim_index: number, text: string) => ({
      kind: 'distortion' as const,
      contradiction: 'number' as const,
      claim_index,
      claim: text,
      fact_id: 'ledger',
      fact: 'the ledger runs version 3804.3',
      claimed: 'x',
      expected: 'y',
      explanation: '',
    });
    const signals: WindowSignals = {
      ...healthy(2),
      contradictions: [
        said(0, 'We confirmed that the cdn runs version 6019.6.'),
        said(1, 'We confirmed that the ledger runs version 2035.5.'),
      ],
      distortion_count: 2,
    };
    const next: ContextFact[] = [
      { id: 'ledger', statement: 'the ledger runs version 3804.3', source: 'cso' },
      { id: 'cdn', statement: 'the cdn runs version 6019.6', source: 'cso' },
      // Not a fact: skipped, as the DPE would refuse it.
      { id: 7, statement: null, source: 'cso' } as unknown as ContextFact,
    ];
    const step = stepWith(signals, next);
    expect(quarantined(step)).toEqual(['We confirmed that the ledger runs version 2035.5.']);
  });

  it('does not call a claim the next context grounds unsupported', () => {
    const signals: WindowSignals = {
      ...healthy(1),
      claims: [
        claim(0, 'We confirmed that the batch importer runs version 2636.4.', 'UNVERIFIABLE'),
        claim(1, 'We confirmed that the ledger keeps 9 replicas.', 'UNVERIFIABLE'),
        claim(2, 'Most clusters lose data every year.', 'UNVERIFIABLE'),
      ],
      grounding_pct: 0,
      unverifiable_count: 3,
    };
    const next: ContextFact[] = [
      ...CONTEXT,
      { id: 'importer', statement: 'the batch importer runs version 2636.4', source: 'cso' },
    ];
    const unverified = (step: ReturnType<typeof airStep>) =>
      step.state.unverified_claims.map((c) => c.claim);
    const before = airStep(initialAirState(), input(signals), DEFAULT_AIR_POLICY);
    expect(unverified(before)).toHaveLength(3);
    const step = stepWith(signals, next);
    expect(unverified(step)).toEqual([
      'We confirmed that the ledger keeps 9 replicas.',
      'Most clusters lose data every year.',
    ]);
    // The epistemic map's unverified list is the state's: the established claim is not in it.
    expect(step.injection).toContain('UNVERIFIED ASSERTIONS');
    expect(step.injection).not.toMatch(/batch importer runs version 2636\.4 \[UNVERIFIED/);
  });

  it('reads the newest entries against the next context, however many the window flagged', () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      kind: 'distortion' as const,
      contradiction: 'number' as const,
      claim_index: i,
      claim: `We confirmed that service ${i} runs version ${i}.5.`,
      fact_id: null,
      fact: null,
      claimed: 'x',
      expected: null,
      explanation: '',
    }));
    const signals: WindowSignals = { ...healthy(1), contradictions: many, distortion_count: 300 };
    const next: ContextFact[] = many.map((_, i) => ({
      id: `s${i}`,
      statement: `service ${i} runs version ${i}.5`,
      source: 'cso',
    }));
    const step = stepWith(signals, next);
    expect(quarantined(step)).toEqual([]);
  });

  it('releases an entry judged against a fact the next context no longer holds', () => {
    const fabricated = {
      ...flagged(1),
      contradictions: [
        ...flagged(1).contradictions,
        {
          kind: 'fabrication' as const,
          contradiction: 'entity' as const,
          claim_index: 2,
          claim: 'Consul keeps 48 GB of cluster state in memory.',
          fact_id: null,
          fact: null,
          claimed: 'Consul',
          expected: null,
          explanation: '',
        },
      ],
      fabrication_count: 1,
    };
    // The etcd fact was superseded; the section fact was never in the context.
    const next = CONTEXT.filter((f) => f.id !== 'etcd');
    const step = stepWith(fabricated, next);
    expect(quarantined(step)).toEqual([
      'Section Constraints is drafted.',
      'Consul keeps 48 GB of cluster state in memory.',
    ]);
    // A context too long to read whole keeps every entry whose fact it may hold.
    const long = Array.from({ length: AIR_LIMITS.contextFacts + 1 }, (_, i) => ({
      id: `n${i}`,
      statement: `note ${i}`,
      source: 'cso',
    }));
    const bounded = stepWith(fabricated, long);
    expect(quarantined(bounded)).toHaveLength(3);
  });

  it('offers the next context’s facts, never one the window took out of the state', () => {
    const etcd = CONTEXT.find((f) => f.id === 'etcd')!;
    const raft = CONTEXT.find((f) => f.id === 'raft')!;
    const context = [etcd, raft];
    // Without the next context, the window's own is offered: the etcd fact matches its claims.
    const before = airStep(initialAirState(), input(flagged(1), context), DEFAULT_AIR_POLICY);
    expect(before.packet!.targeted_retrieval!.fact_ids).toEqual(['etcd']);

    // The window superseded the etcd fact: the next context no longer has it.
    const consul = {
      id: 'consul',
      statement: 'Kubernetes keeps its state in Consul since the migration.',
      source: 'cso',
    };
    const step = airStep(
      initialAirState(),
      { ...input(flagged(1), context), next_context: [raft, consul] },
      DEFAULT_AIR_POLICY,
    );
    expect(step.packet!.targeted_retrieval!.fact_ids).toEqual(['consul']);
    expect(step.injection).not.toContain(etcd.statement);
  });

  it('refuses a next context that is not a list', () => {
    expect(() =>
      airStep(
        initialAirState(),
        { ...input(flagged(1)), next_context: 'facts' as never },
        DEFAULT_AIR_POLICY,
      ),
    ).toThrow(CanonryError);
  });
});
