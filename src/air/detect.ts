import type { WindowSignals } from '../dpe/index.js';
import type { AirThresholds } from './thresholds.js';
import type { AirComponent, AirMode, AirState, Detection } from './types.js';

/**
 * Pattern Detector: which components one window's signals trigger (§2.2), given the state the
 * aggregator folded them into. Strict comparisons as §2.2 writes them: a value exactly at its
 * threshold triggers nothing.
 *
 * - quarantine: the state holds quarantined claims (`fabrication_count` / `distortion_count` > 0
 *   add them; they stay quarantined for the rest of the session);
 * - `grounding_pct < grounding` → targeted retrieval; `completeness < completeness` → goal residual;
 * - `repetition_ratio > repetition` → concept freshness; the n-gram blacklist (vocabulary
 *   directives) applies whenever it is not empty, as v3.1.1's did from window 2 (§3.1, §4.2);
 * - `flow_score < flow` → flow bridge; UNVERIFIABLE claims `> unverifiable` → epistemic map;
 * - any UNVERIFIABLE claim (in `aggressive` also any PARAMETRIC one) → a scaffold for its type.
 *
 * `off` triggers nothing. Quality above `maintenance` keeps only the quarantine; a window at the
 * end of its feedback loop (`loop_position` = `max_windows`) is `bounded`: no IAP follows it.
 */
export function detect(
  signals: WindowSignals,
  state: AirState,
  mode: AirMode,
  t: AirThresholds,
): Detection {
  if (mode === 'off') return { components: [], maintenance: false, bounded: false };
  const bounded = state.loop_position >= t.max_windows;
  const maintenance = signals.quality > t.maintenance;
  const on = new Set<AirComponent>();
  if (state.quarantine.length > 0) on.add('error_quarantine');
  if (!maintenance) {
    if (signals.grounding_pct < t.grounding) on.add('targeted_retrieval');
    if (signals.completeness.score < t.completeness) on.add('goal_residual');
    if (signals.repetition.ratio > t.repetition) on.add('concept_freshness');
    if (state.ngram_blacklist.length > 0) on.add('vocabulary_directives');
    if (signals.flow_score < t.flow) on.add('flow_bridge');
    if (signals.unverifiable_count > t.unverifiable) on.add('epistemic_map');
    if (signals.claims.some((c) => scaffolded(c.attribution, mode))) on.add('reasoning_scaffolds');
  }
  return { components: bounded ? [] : [...on], maintenance, bounded };
}

/** Whether a claim of this attribution earns its type a reasoning scaffold. */
export function scaffolded(attribution: string, mode: AirMode): boolean {
  return attribution === 'UNVERIFIABLE' || (mode === 'aggressive' && attribution === 'PARAMETRIC');
}
