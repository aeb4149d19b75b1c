import { CanonryError, type ContentHash } from '../core/index.js';
import type { GateLabel } from './gate.js';
import type { ProposalRecord } from './records.js';
import type { Role } from './types.js';

/**
 * What an approval may say beyond who gives it: the version the approver saw as current. Optional on
 * a first approval (when given it must be the proposal's base); required once canon moved and the
 * proposal was compared again (`approval_requires_base`).
 */
export interface Approval {
  readonly base_version?: ContentHash | null;
}

/** Who must approve a proposal the gate held back. */
export function requiredRole(label: GateLabel): Role | null {
  if (label === 'HARD_STOP') return 'owner';
  if (label === 'REQUIRE_CONFIRMATION') return 'editor';
  return null;
}

export function mayApprove(role: Role, required: Role | null): boolean {
  if (required === 'owner') return role === 'owner';
  if (required === 'editor') return role === 'owner' || role === 'editor';
  return false;
}

/**
 * Refuses an approval that does not name the version the proposal now overwrites: required after a
 * re-comparison, checked whenever given.
 */
export function acknowledged(proposal: ProposalRecord, approval: Approval): void {
  // A row projected before the field existed reads as not re-compared (a rebuild fills it in).
  const required = proposal.approval_requires_base ?? null;
  const given = approval.base_version;
  if (required === null && (given === undefined || given === proposal.base_version)) return;
  if (required !== null && given === required) return;
  const base = required ?? proposal.base_version;
  throw new CanonryError(
    'BASE_NOT_ACKNOWLEDGED',
    required !== null
      ? `canon moved and ${proposal.proposal_id} was compared again: read what it would now overwrite, then approve with base_version ${required}`
      : `${proposal.proposal_id} was compared against ${base ?? 'no version'}, not ${given ?? 'no version'}`,
    {
      proposal_id: proposal.proposal_id,
      approval_requires_base: base,
      base_version: given ?? null,
    },
  );
}
