import type { WindowSignals } from '../dpe/index.js';

/** The §5.2 inputs for one window. */
export interface SessionIqInputs {
  /** Mean of the windows' repetition ratios so far. */
  readonly cumulative_repetition_ratio: number;
  readonly completeness_score: number;
  /** Fabrications / claims of the window (0 when it has no claims). */
  readonly fabrication_rate: number;
  readonly flow_score: number;
}

/**
 * CRP-018 §5.2, exactly:
 * `100 × ((1 − cumulative_repetition_ratio) × 0.25 + completeness × 0.35 + (1 − fabrication_rate) × 0.25 + flow × 0.15)`,
 * unrounded (the header rounds). Inputs are clamped to [0, 1].
 */
export function sessionIq(x: SessionIqInputs): number {
  const c = (v: number) => Math.min(1, Math.max(0, v));
  return (
    100 *
    ((1 - c(x.cumulative_repetition_ratio)) * 0.25 +
      c(x.completeness_score) * 0.35 +
      (1 - c(x.fabrication_rate)) * 0.25 +
      c(x.flow_score) * 0.15)
  );
}

/** Fabrications over the window's claims; distortions are quarantined but are not fabrications. */
export function fabricationRate(signals: WindowSignals): number {
  const claims = signals.claims.length;
  return claims === 0 ? 0 : Math.min(1, signals.fabrication_count / claims);
}
