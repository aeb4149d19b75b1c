import { CanonryError, isCanonryError } from '../core/index.js';
import type { Journal } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { authorize, type PromotionActor } from './promotion-actor.js';
import { PROMOTION_ENTRY } from './promotion-entry-kind.js';
import type { LivePromotions } from './promotion-live.js';
import { applyStep } from './promotion-machine.js';
import type { PromotionState, PromotionStep } from './promotion-types.js';

/** One step to journal: who takes it, and the idempotency key it is journaled under. */
export interface Planned {
  readonly step: PromotionStep;
  readonly who: PromotionActor;
  readonly idempotencyKey?: string | undefined;
}

const RETRIES = 3;

/**
 * Plans steps on the current state, checks each against the machine (and its taker's authority)
 * and appends them together, in one transaction, only if the promotion has taken no step since
 * the state was read ({@link moved}) — all or none; planned again on a conflict (three tries,
 * then CONFLICT).
 */
export async function takeSteps(
  journal: Journal,
  live: LivePromotions,
  project: string,
  id: string,
  plan: (current: PromotionState | null) => readonly Planned[] | Promise<readonly Planned[]>,
): Promise<PromotionState> {
  for (let attempt = 1; ; attempt++) {
    const view = await live.view(project);
    // The seq the steps are planned on, taken now: the view is shared and folded further by
    // other calls while this one awaits its plan.
    const at = view.cursor;
    const current = await live.state(project, id, view);
    const planned = await plan(current);
    let state = current;
    for (const { step, who } of planned) {
      if (state === null && step.step !== 'propose') break;
      authorize(who, step.step === 'propose' ? step.candidate : state!.candidate);
      state = applyOrRefuse(state, step);
    }
    if (state === null) {
      throw new CanonryError('UNKNOWN_PROMOTION', `no promotion ${id} in ${project}`, {
        promotion_id: id,
      });
    }
    if (planned.length === 0) return state;
    try {
      await journal.appendAll(
        project,
        planned.map(({ step, who, idempotencyKey }) =>
          PROMOTION_ENTRY.input(
            { promotion_id: id, step },
            {
              actor: who.actor,
              ...(who.authority === undefined ? {} : { authority: who.authority }),
              correlation_id: id,
              ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
            },
          ),
        ),
        {
          precondition: async (tx, head) => moved(tx, head.seq, project, id, at, current),
        },
      );
    } catch (err) {
      if (isCanonryError(err, 'CONFLICT') && attempt < RETRIES) continue;
      throw err;
    }
    return (await live.state(project, id, await live.view(project)))!;
  }
}

/** The state `step` leads to, or the machine's refusal as a typed error. */
export function applyOrRefuse(state: PromotionState | null, step: PromotionStep): PromotionState {
  const next = applyStep(state, step);
  if (!next.ok) {
    const issue = next.issues[0]!;
    throw new CanonryError(issue.code, issue.message, {
      stage: issue.stage,
      step: issue.step,
      ...(issue.path === undefined ? {} : { path: issue.path }),
    });
  }
  return next.value;
}

/**
 * Under the project's head lock: CONFLICT when the promotion has taken a step since the seq its
 * next steps were planned on. Other entries of the project (relay windows, commits, other
 * promotions' steps) do not touch its state, so they do not refuse the step — with the whole head
 * as the condition, a project that appended anything every few milliseconds refused every step.
 * The `evolution` projection's `step_seq` says where the promotion's latest step is, for entries
 * committed before and for those earlier in this same transaction; a journal without the projection
 * falls back to the head itself.
 */
async function moved(
  tx: Queryable,
  head: number,
  project: string,
  id: string,
  planned: number,
  current: PromotionState | null,
): Promise<void> {
  if (head === planned) return;
  const [row] = await tx.all<{ step_seq: number | string }>(
    'SELECT step_seq FROM evolution_promotions WHERE project = $1 AND promotion_id = $2',
    [project, id],
  );
  const stepped = row === undefined ? current !== null : Number(row.step_seq) > planned;
  if (stepped) {
    throw new CanonryError('CONFLICT', `promotion ${id} took a step after seq ${planned}`, {
      promotion_id: id,
    });
  }
}
