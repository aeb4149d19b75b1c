import { CanonryError } from '../core/index.js';
import type { ContextFact, WindowSignals } from '../dpe/index.js';

/** What AIR reads after one window: the DPE's signals, the context they were checked against, the task. */
export interface AirInput {
  readonly signals: WindowSignals;
  /** The facts the window could draw on (the DPE's context): the source of corrections and fresh material. */
  readonly context: readonly ContextFact[];
  /**
   * The facts the next window will be given, when the caller knows them (the relay does: the state
   * it just sealed). A quarantined or unverified claim they ground (as the DPE reads it) is
   * released — the packet never forbids, or calls unsupported, what the next window's own context
   * holds — as is a quarantined claim judged against a fact they no
   * longer hold; and the facts the IAP offers (targeted retrieval, fresh anchors, preferred
   * communities) are taken from them instead of `context`.
   */
  readonly next_context?: readonly ContextFact[];
  readonly task: {
    /** The session objective, compressed into the goal residual's `original_task`. */
    readonly objective: string;
    /** The session's remaining work, when the window's uncovered items are not reported. */
    readonly remaining?: readonly string[];
  };
}

function bad(path: string, reason: string): never {
  throw new CanonryError('INVALID_ARGUMENT', `AIR input: ${path} ${reason}`, { path });
}

function unit(value: unknown, path: string): void {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) bad(path, 'is a number in [0, 1]');
}

function count(value: unknown, path: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    bad(path, 'is a non-negative integer');
  }
}

/**
 * The scores and counts AIR computes with are finite and in range, so no NaN reaches the state or a
 * header. Lists are read up to `AIR_LIMITS.windowItems` items and texts are cut where they are used.
 */
export function checkAirInput(input: AirInput): void {
  const s = input?.signals;
  if (s === null || typeof s !== 'object') bad('signals', 'is missing');
  if (!Number.isSafeInteger(s.window_number) || s.window_number < 1) {
    bad('signals.window_number', 'is a positive integer');
  }
  unit(s.grounding_pct, 'signals.grounding_pct');
  unit(s.flow_score, 'signals.flow_score');
  unit(s.quality, 'signals.quality');
  unit(s.completeness?.score, 'signals.completeness.score');
  unit(s.repetition?.ratio, 'signals.repetition.ratio');
  count(s.fabrication_count, 'signals.fabrication_count');
  count(s.distortion_count, 'signals.distortion_count');
  count(s.unverifiable_count, 'signals.unverifiable_count');
  for (const [path, list] of [
    ['signals.claims', s.claims],
    ['signals.contradictions', s.contradictions],
    ['signals.repetition.ngrams', s.repetition.ngrams],
    ['signals.completeness.covered', s.completeness.covered],
    ['signals.completeness.uncovered', s.completeness.uncovered],
    ['context', input.context],
    ...(input.next_context === undefined ? [] : [['next_context', input.next_context] as const]),
  ] as const) {
    if (!Array.isArray(list)) bad(path, 'is a list');
  }
  if (typeof input.task?.objective !== 'string') bad('task.objective', 'is a string');
  if (input.task.remaining !== undefined && !Array.isArray(input.task.remaining)) {
    bad('task.remaining', 'is a list');
  }
}
