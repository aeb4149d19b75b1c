import {
  CanonryError,
  type ContentHash,
  contentHash,
  fail,
  ok,
  type Result,
} from '../core/index.js';
import type {
  ArmTotals,
  PromotionCandidate,
  PromotionStage,
  PromotionState,
  PromotionStep,
  PromotionStepName,
} from './promotion-types.js';

/** Why a step was refused. */
export interface PromotionIssue {
  readonly code: 'PROMOTION_ILLEGAL_TRANSITION' | 'INVALID_PROMOTION';
  readonly message: string;
  readonly stage?: PromotionStage | null;
  readonly step?: PromotionStepName;
  /** The field of the step at fault. */
  readonly path?: string;
}

/** The stages each step may leave. A rollback is never undone: it is a stage of its own. */
const FROM: Readonly<Record<PromotionStepName, readonly (PromotionStage | null)[]>> = {
  propose: [null],
  validate: ['candidate'],
  check: ['validated'],
  publish: ['checked'],
  canary: ['published'],
  observe: ['canary'],
  promote: ['canary'],
  roll_back: ['published', 'canary', 'promoted'],
};

const EMPTY: ArmTotals = { samples: 0, sum: 0, observations: 0 };

/**
 * Most observations a promotion's history keeps: the latest. The arms' totals count every one
 * (`observed` says how many), so the canary's decision is unchanged; what is bounded is the state
 * every read of the promotion carries, and the work of folding it — each step copies the history,
 * so an unbounded one (one observation per collected relay window, up to a million samples a side)
 * made a rebuild quadratic in the canary's samples.
 */
export const MAX_OBSERVATION_HISTORY = 256;

/** The content address of an artifact: `sha256:` over its RFC 8785 bytes. */
export function artifactAddress(candidate: Pick<PromotionCandidate, 'artifact'>): ContentHash {
  return contentHash(candidate.artifact);
}

/**
 * The promotion state machine: the stage `step` leads to from `state` (null before the proposal),
 * or why it may not be taken. Pure: the runner journals a step only once this accepts it, and a
 * rebuild folds the journaled steps through it again.
 */
export function applyStep(
  state: PromotionState | null,
  step: PromotionStep,
  seq: number | null = null,
): Result<PromotionState, PromotionIssue> {
  const stage = state?.stage ?? null;
  if (!FROM[step.step].includes(stage)) {
    return fail({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      message: `a promotion ${stage === null ? 'not yet proposed' : `at ${stage}`} cannot take the step ${step.step}`,
      stage,
      step: step.step,
    });
  }
  if (step.step === 'propose') {
    const { candidate } = step;
    return ok({
      promotion_id: candidate.promotion_id,
      artifact_kind: candidate.artifact_kind,
      address: artifactAddress(candidate),
      candidate,
      stage: 'candidate',
      rejected_at: null,
      publication: null,
      arms: { canary: EMPTY, baseline: EMPTY },
      reason: null,
      observed: 0,
      history: [{ step: 'propose', stage: 'candidate', seq }],
    });
  }
  const current = state!;
  const to = (next: PromotionStage, changes: Partial<PromotionState> = {}) => {
    const history: PromotionState['history'][number][] = [
      ...current.history,
      step.step === 'observe'
        ? {
            step: step.step,
            stage: next,
            seq,
            observation: { arm: step.arm, value: step.value, samples: step.samples },
          }
        : { step: step.step, stage: next, seq },
    ];
    const observed = current.observed + (step.step === 'observe' ? 1 : 0);
    if (step.step === 'observe' && observed > MAX_OBSERVATION_HISTORY) {
      history.splice(
        history.findIndex((h) => h.step === 'observe'),
        1,
      );
    }
    return ok<PromotionState>({ ...current, ...changes, stage: next, observed, history });
  };
  switch (step.step) {
    case 'validate':
      return step.passed
        ? to('validated')
        : to('rejected', {
            rejected_at: 'validation',
            reason: `replay validation failed: ${step.failures.map((f) => `${f.event_id} ${f.reason}`).join('; ')}`,
          });
    case 'check':
      return step.passed
        ? to('checked')
        : to('rejected', { rejected_at: 'policy', reason: step.reasons.join('; ') });
    case 'publish': {
      const p = step.publication;
      if (p.promotion_id !== current.promotion_id || p.address !== current.address) {
        return fail({
          code: 'INVALID_PROMOTION',
          message: 'the publication is not of this promotion or does not address its artifact',
          stage,
          step: 'publish',
        });
      }
      return to('published', { publication: p });
    }
    case 'canary':
      return to('canary');
    case 'observe': {
      const cap = current.candidate.metric.max_observation_samples;
      if (cap !== undefined && step.samples > cap) {
        return fail({
          code: 'INVALID_PROMOTION',
          message: `one observation may claim at most ${cap} samples (this promotion's max_observation_samples), not ${step.samples}: report a larger measurement as several observations`,
          stage,
          step: 'observe',
          path: '/samples',
        });
      }
      const arm = current.arms[step.arm];
      const totals = {
        samples: arm.samples + step.samples,
        sum: arm.sum + step.value * step.samples,
        observations: arm.observations + 1,
      };
      return to('canary', { arms: { ...current.arms, [step.arm]: totals } });
    }
    case 'promote':
      return to('promoted', { reason: step.reason });
    case 'roll_back':
      return to('rolled_back', { reason: step.reason });
  }
}

/** The mean of one arm, or null before any sample. */
export function armMean(arm: ArmTotals): number | null {
  return arm.samples === 0 ? null : arm.sum / arm.samples;
}

/**
 * What the canary's metric decides on its own, or null while it cannot yet: once both arms hold
 * `min_samples` in at least `min_observations` observations, a canary mean below the baseline's by
 * more than the margin rolls back, any other promotes. The bounds are the ones the promotion was
 * proposed with (a promotion proposed before `min_observations` existed needs one observation, as
 * it did then), so the journal is judged the same way whenever it is read.
 */
export function canaryDecision(
  state: PromotionState,
): Extract<PromotionStep, { step: 'promote' | 'roll_back' }> | null {
  if (state.stage !== 'canary') return null;
  const { min_samples, margin, name, min_observations = 1 } = state.candidate.metric;
  const { canary, baseline } = state.arms;
  if (canary.samples < min_samples || baseline.samples < min_samples) return null;
  if (canary.observations < min_observations || baseline.observations < min_observations) {
    return null;
  }
  const c = armMean(canary)!;
  const b = armMean(baseline)!;
  const fixed = (n: number) => n.toFixed(4);
  if (c < b - margin) {
    return {
      step: 'roll_back',
      automatic: true,
      reason: `${name} ${fixed(c)} on the canary is below the baseline's ${fixed(b)} by more than ${margin}`,
    };
  }
  return {
    step: 'promote',
    automatic: true,
    reason: `${name} ${fixed(c)} on the canary holds against the baseline's ${fixed(b)} (margin ${margin})`,
  };
}

/** Folds steps (as journaled, in order) into each promotion's state. */
export function foldSteps(
  steps: Iterable<{
    readonly promotion_id: string;
    readonly step: PromotionStep;
    readonly seq: number | null;
  }>,
  into: Map<string, PromotionState> = new Map(),
): Map<string, PromotionState> {
  for (const { promotion_id, step, seq } of steps) {
    const next = applyStep(into.get(promotion_id) ?? null, step, seq);
    // Every journaled step was accepted by this machine when it was appended (under the head it
    // was decided on): one that no longer applies is a defect to report, not a state to guess.
    if (!next.ok) {
      throw new CanonryError(
        'INTERNAL',
        `promotion ${promotion_id} at seq ${seq}: ${next.issues[0]!.message}`,
        {
          promotion_id,
          seq,
        },
      );
    }
    into.set(promotion_id, next.value);
  }
  return into;
}
