import { validateProtocol } from '../kernel/index.js';
import type { PromotionCandidate } from './promotion-types.js';

/** A policy or safety check: the reasons it refuses the candidate, none when it passes. */
export type PolicyCheck = (candidate: PromotionCandidate) => readonly string[];

/** The most of the sessions a share-based canary may take: a canary is a minority. */
export const MAX_CANARY_SHARE = 0.5;

/**
 * The checks every candidate passes, whatever the runtime adds: a protocol or gate policy is a
 * valid agentic protocol (the kernel's own validation); the canary reaches some sessions and no
 * more than {@link MAX_CANARY_SHARE} of them by share.
 */
export const BUILT_IN_CHECKS: PolicyCheck = (candidate) => {
  const reasons: string[] = [];
  if (candidate.artifact_kind === 'agentic_protocol' || candidate.artifact_kind === 'gate_policy') {
    const valid = validateProtocol(candidate.artifact);
    if (!valid.ok) {
      const first = valid.issues[0]!;
      reasons.push(`not a valid agentic protocol: ${first.path || '/'} ${first.message}`);
    }
  }
  if (candidate.canary.share > MAX_CANARY_SHARE) {
    reasons.push(`a canary share of ${candidate.canary.share} is over ${MAX_CANARY_SHARE}`);
  }
  if (candidate.canary.share === 0 && candidate.canary.projects.length === 0) {
    reasons.push('the canary reaches no session: give a share or name a project');
  }
  return reasons;
};
