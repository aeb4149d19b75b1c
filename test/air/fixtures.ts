import type { AirInput } from '../../src/air/index.js';
import type { ClaimSignal, ContextFact, WindowSignals } from '../../src/dpe/index.js';

/** A grounded claim of the healthy baseline. */
export function grounded(index: number): ClaimSignal {
  return {
    index,
    text: `Component ${index} stores its state in the cluster store.`,
    attribution: 'CONTEXT_GROUNDED',
    confidence: 0.9,
    fact_id: `f${index}`,
    claim_type: 'architecture',
    explanation: 'matches a context fact',
  };
}

export const CONTEXT: readonly ContextFact[] = [
  { id: 'f0', statement: 'Component 0 stores its state in the cluster store.', source: 'cso' },
  { id: 'f1', statement: 'Component 1 stores its state in the cluster store.', source: 'cso' },
  { id: 'f2', statement: 'Component 2 stores its state in the cluster store.', source: 'cso' },
  { id: 'f3', statement: 'Component 3 stores its state in the cluster store.', source: 'cso' },
  { id: 'f4', statement: 'Component 4 stores its state in the cluster store.', source: 'cso' },
  {
    id: 'etcd',
    statement: 'Kubernetes uses etcd as its distributed key-value store.',
    source: 'canon',
  },
  {
    id: 'raft',
    statement: 'etcd uses the Raft consensus algorithm for replication.',
    source: 'canon',
  },
  {
    id: 'tput',
    statement: 'etcd write throughput depends on disk latency and cluster size.',
    source: 'tool',
  },
];

/** Signals that trigger nothing under the §2.2 defaults. */
export function healthy(window_number = 1): WindowSignals {
  const claims = [0, 1, 2, 3, 4].map(grounded);
  return {
    window_number,
    truncated: false,
    claims,
    contradictions: [],
    fabrication_count: 0,
    distortion_count: 0,
    grounding_pct: 1,
    unverifiable_count: 0,
    repetition: { ratio: 0, ngrams: [], duplicate_sentences: [], duplicate_ratio: 0 },
    completeness: { score: 1, covered: ['introduction'], uncovered: [] },
    flow_score: 0.9,
    quality: 0.8,
  };
}

export function input(signals: WindowSignals, context = CONTEXT): AirInput {
  return {
    signals,
    context,
    task: { objective: 'Explain how Kubernetes keeps cluster state.', remaining: [] },
  };
}

export function claim(
  index: number,
  text: string,
  attribution: ClaimSignal['attribution'],
  claim_type = 'performance statistic',
): ClaimSignal {
  return {
    index,
    text,
    attribution,
    confidence: 0.7,
    fact_id: null,
    claim_type,
    explanation: '',
  };
}
