import { CanonryError } from '../core/index.js';
import { BUILT_IN_CHECKS } from './promotion-checks.js';
import { publishCandidate, verifyPublication } from './promotion-publication.js';
import type { PromotionReplayInputs, PromotionRunnerOptions } from './promotion-runner.js';
import { PROMOTION_LIMITS } from './promotion-schema.js';
import type { PromotionCandidate, PromotionState, PromotionStep } from './promotion-types.js';

/** The validate step for a candidate: its events replayed; nothing to replay fails it. */
export async function validationStep(
  options: PromotionRunnerOptions,
  project: string,
  candidate: PromotionCandidate,
  replay: PromotionReplayInputs = {},
): Promise<Extract<PromotionStep, { step: 'validate' }>> {
  const result = await options.validator(candidate, project, replay);
  const failures =
    result.replayed === 0 && result.failures.length === 0
      ? [
          {
            event_id: '-',
            reason: 'nothing to replay: a candidate names the events that validate it',
          },
        ]
      : result.failures;
  return {
    step: 'validate',
    passed: failures.length === 0,
    replayed: result.replayed,
    // The validator is a port: what it reports is bounded here as the step's schema bounds it,
    // so a long reason (a deep first difference's path) rejects the candidate instead of
    // failing the append.
    failures: failures.slice(0, PROMOTION_LIMITS.replayEvents).map((f) => ({
      event_id: f.event_id,
      reason: clip(f.reason, REASON_CHARS),
    })),
  };
}

/** The check step for a candidate: built-in checks, then the runtime's. */
export function checkStep(
  options: PromotionRunnerOptions,
  candidate: PromotionCandidate,
): Extract<PromotionStep, { step: 'check' }> {
  const reasons = [BUILT_IN_CHECKS, ...(options.checks ?? [])].flatMap((c) => c(candidate));
  return {
    step: 'check',
    passed: reasons.length === 0,
    reasons: reasons.slice(0, PROMOTION_LIMITS.reasons).map((r) => clip(r, REASON_CHARS)),
  };
}

/**
 * The steps that take a promotion on from each stage as far as it goes on its own: validation
 * (replayed once, here), checks, publication (signed once), canary — none past a rejection. The
 * canary's projects must still admit this one when it is to be opened.
 */
export async function onwardSteps(
  options: PromotionRunnerOptions,
  admitted: (project: string, candidate: PromotionCandidate) => Promise<void>,
  project: string,
  state: PromotionState,
  replay?: PromotionReplayInputs,
): Promise<(stage: PromotionState['stage']) => PromotionStep[]> {
  const order = ['candidate', 'validated', 'checked', 'published'] as const;
  const from = order.indexOf(state.stage as (typeof order)[number]);
  if (from < 0) return () => [];
  const { candidate } = state;
  const steps: PromotionStep[] = [];
  if (from <= 0) steps.push(await validationStep(options, project, candidate, replay));
  if (from <= 1 && (from === 1 || (steps.at(-1) as { passed: boolean }).passed)) {
    steps.push(checkStep(options, candidate));
  }
  if (from <= 2 && (from === 2 || (steps.at(-1) as { passed: boolean }).passed)) {
    const publication = publishCandidate(candidate, options.signer());
    const verified = verifyPublication(publication, candidate, options.anchor());
    if (!verified.ok) {
      throw new CanonryError('PUBLICATION_INVALID', verified.issues[0]!.message, {
        promotion_id: candidate.promotion_id,
      });
    }
    steps.push({ step: 'publish', publication });
  }
  if (from <= 3 && (from === 3 || steps.at(-1)?.step === 'publish')) {
    await admitted(project, candidate);
    steps.push({ step: 'canary' });
  }
  // Read again after a conflict, the promotion may have gone on meanwhile: the rest from there.
  return (stage) => {
    const at = order.indexOf(stage as (typeof order)[number]);
    return at < from ? [] : steps.slice(at - from);
  };
}

/** Most characters of one reason a step journals (the step schema's bound). */
const REASON_CHARS = 2_000;

/** `text` cut to at most `max` UTF-16 units, never between the halves of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
