import { round } from './explain.js';

/**
 * One quality score in 0–1 (README "Quality"), weighted like CRP-018 §5.2's session IQ with
 * grounding added:
 *   0.20 × (1 − repetition ratio) + 0.30 × completeness + 0.20 × (1 − contradiction rate)
 *   + 0.15 × flow + 0.15 × grounding_pct,
 * where the contradiction rate is (fabrications + distortions) / claims (0 without claims).
 */
export const QUALITY_WEIGHTS = Object.freeze({
  repetition: 0.2,
  completeness: 0.3,
  contradictions: 0.2,
  flow: 0.15,
  grounding: 0.15,
});

export function qualityOf(s: {
  readonly repetition: number;
  readonly completeness: number;
  readonly contradictions: number;
  readonly claims: number;
  readonly flow: number;
  readonly grounding: number;
}): number {
  const w = QUALITY_WEIGHTS;
  const rate = s.claims === 0 ? 0 : Math.min(1, s.contradictions / s.claims);
  return round(
    w.repetition * (1 - s.repetition) +
      w.completeness * s.completeness +
      w.contradictions * (1 - rate) +
      w.flow * s.flow +
      w.grounding * s.grounding,
  );
}
