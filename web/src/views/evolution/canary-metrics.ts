import type { Observation } from '../../api/evolution.js';

/** One row of the canary's record: an observation and each arm's running mean after it. */
export interface MetricRow {
  readonly n: number;
  readonly observation: Observation;
  readonly canaryMean: number | null;
  readonly baselineMean: number | null;
}

/**
 * Each arm's mean after every observation, weighted by samples as the server's canary rule weighs
 * them (the sum of value × samples over the samples).
 */
export function runningMeans(observations: readonly Observation[]): MetricRow[] {
  const totals = { canary: { sum: 0, samples: 0 }, baseline: { sum: 0, samples: 0 } };
  const mean = (t: { sum: number; samples: number }) =>
    t.samples === 0 ? null : t.sum / t.samples;
  return observations.map((o, i) => {
    const t = totals[o.arm];
    t.sum += o.value * o.samples;
    t.samples += o.samples;
    return {
      n: i + 1,
      observation: o,
      canaryMean: mean(totals.canary),
      baselineMean: mean(totals.baseline),
    };
  });
}

/** A mean shown to three places, or a dash when the arm has no sample yet. */
export const fixed = (v: number | null): string => (v === null ? '—' : v.toFixed(3));
