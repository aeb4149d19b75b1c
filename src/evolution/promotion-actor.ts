import { CanonryError, type JsonValue } from '../core/index.js';
import type { PromotionCandidate } from './promotion-types.js';

/** The role a person holds in the promotion's project (their token's). */
export type PromotionRole = 'owner' | 'editor' | 'agent' | 'tool' | 'viewer';

/** Who takes a step: journaled as the entry's actor and authority (never from a payload). */
export interface PromotionActor {
  readonly actor: string;
  readonly authority?: JsonValue;
  /**
   * A person's role in the promotion's project, from their token: a `gate_policy` promotion's
   * steps and admissions need `owner`. Absent, the step is nobody's with a role and such steps are
   * refused — unless `runtime` says the runtime takes it itself.
   */
  readonly role?: PromotionRole;
  /** The runtime's own step (the canary's decision, the collector's observations). */
  readonly runtime?: true;
}

/** The actor automatic steps (the canary's own decision) are journaled as. */
export const CANARY_ACTOR = 'evolution:canary';

/** The runtime itself, taking the canary's steps (its decision, collected observations). */
export const RUNTIME_ACTOR: PromotionActor = { actor: CANARY_ACTOR, runtime: true };

/**
 * A gate policy decides what commits without a person in a project: a promotion of one changes who
 * must approve what, which is the owner's authority. Every step a person takes on one (propose,
 * validate, check, publish, canary, observe, promote, roll back) needs the owner role in the
 * promotion's project; the runtime's own steps stay its own. Other kinds are the faces' (`minRole`).
 */
export function authorize(who: PromotionActor, candidate: PromotionCandidate): void {
  if (candidate.artifact_kind !== 'gate_policy' || who.runtime === true || who.role === 'owner') {
    return;
  }
  throw new CanonryError(
    'FORBIDDEN',
    "a gate policy decides what commits without a person: every step of its promotion is the project owner's (this needs the owner role)",
    { required_role: 'owner' },
  );
}
