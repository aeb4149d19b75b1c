import type { CanonObject } from './types.js';

/**
 * Where an object stands against its effective window (LCSM §2 `effective_from`, `effective_until`)
 * at a given instant: only `in_effect` objects are current canon in working sets; boards, object
 * reads and provenance show the other two as they are.
 */
export const EFFECTIVE_STATES = ['in_effect', 'expired', 'not_yet_effective'] as const;
export type EffectiveState = (typeof EFFECTIVE_STATES)[number];

/** The window of an object or a note. */
export type EffectiveWindow = Pick<CanonObject, 'effective_from' | 'effective_until'>;

/**
 * The state of a window at `now`. The window is `[effective_from, effective_until)`: a note takes
 * effect at its `effective_from` and has expired at its `effective_until`. A bound that does not
 * parse (only a record written before bounds were checked strictly could hold one) is no bound.
 *
 * @example
 * effectiveState({ effective_from: null, effective_until: '2026-01-01' }, new Date('2026-01-01'))
 * // → 'expired'
 */
export function effectiveState(window: EffectiveWindow, now: Date): EffectiveState {
  const t = now.getTime();
  const from = window.effective_from === null ? Number.NaN : Date.parse(window.effective_from);
  const until = window.effective_until === null ? Number.NaN : Date.parse(window.effective_until);
  if (t < from) return 'not_yet_effective';
  if (t >= until) return 'expired';
  return 'in_effect';
}
