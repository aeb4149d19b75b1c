import { CanonryError } from '../core/index.js';
import { type Approval, acknowledged, mayApprove } from './approval.js';
import type { Canon } from './canon.js';
import { outcomeOf, type ProposalOutcome, planCommit } from './committing.js';
import { refuseCycle } from './graph.js';
import { staleDependents } from './judge.js';
import { closeProposal, pendingProposal, stillPending } from './pending.js';
import { proposalAudience } from './planes.js';
import { recompareOrClose } from './recompare.js';
import type { ProposalRecord } from './records.js';
import { expectedOf, movedSince, refuseMoved } from './staleness.js';
import type { Principal } from './types.js';

/**
 * Approves and commits a pending proposal (see {@link Canon.approve}): the approver's role, then
 * whether canon moved since the comparison (STALE_APPROVAL, the proposal compared again or closed),
 * then the base the approval names; the commit is appended only if, inside its transaction, the
 * proposal is still pending and canon still what was compared.
 */
export async function approveProposal(
  canon: Canon,
  principal: Principal,
  proposalId: string,
  approval: Approval,
): Promise<ProposalOutcome> {
  const reader = canon.reader(principal.project);
  // A proposal the approver cannot read (someone's personal note) does not exist for them.
  const proposal = await pendingProposal(canon.readerFor(principal), proposalId);
  if (!mayApprove(principal.role, proposal.required_role)) {
    throw new CanonryError('FORBIDDEN', `approving this needs the ${proposal.required_role} role`, {
      required_role: proposal.required_role,
    });
  }
  const expected = expectedOf(proposal);
  const moved = await movedSince(reader, expected);
  if (moved !== null) {
    const { closed, base } = await recompareOrClose(canon, reader, proposal, moved);
    throw new CanonryError('STALE_APPROVAL', `canon moved since the comparison: ${moved}`, {
      proposal_id: proposal.proposal_id,
      closed,
      base_version: base,
      ...(closed ? {} : { approval_requires_base: base }),
    });
  }
  acknowledged(proposal, approval);
  const current = proposal.base_version ? await reader.version(proposal.base_version) : null;
  const stale = await staleDependents(
    reader,
    proposalAudience(proposal),
    proposal.object_id,
    proposal.base_version,
    proposal.supersedes,
  );
  const commit = await planCommit(canon, principal.project, proposal, current, principal, stale);
  const [result] = await canon.journal.appendAll(principal.project, [commit.entry], {
    precondition: async (tx) => {
      await stillPending(canon, tx, principal.project, proposalId);
      await refuseMoved(canon.reader(principal.project, tx), expected);
      await refuseCycle(tx, principal.project, proposal.object_id, proposal.candidate);
      await commit.check(tx);
    },
  });
  return outcomeOf(canon, principal.project, proposalId, result!);
}

/** Rejects a pending proposal: an owner or editor may, and so may its proposer (withdrawal). */
export async function rejectProposal(
  canon: Canon,
  principal: Principal,
  proposalId: string,
  reason: string,
): Promise<ProposalRecord> {
  const reader = canon.readerFor(principal);
  const proposal = await pendingProposal(reader, proposalId);
  const own = proposal.proposer.id === principal.id;
  if (!own && principal.role !== 'owner' && principal.role !== 'editor') {
    throw new CanonryError('FORBIDDEN', 'only an owner, an editor or the proposer may reject');
  }
  if (typeof reason !== 'string' || reason.length > 2_000 || !reason.isWellFormed()) {
    throw new CanonryError(
      'INVALID_PROPOSAL',
      'reason must be a string of at most 2,000 characters',
    );
  }
  await closeProposal(canon, principal.project, proposalId, principal, reason);
  return (await reader.proposal(proposalId))!;
}
