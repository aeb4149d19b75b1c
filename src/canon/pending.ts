import { CanonryError } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { Canon } from './canon.js';
import { authorityOf } from './commit.js';
import { REJECT } from './entry-kinds.js';
import type { CanonReader } from './read.js';
import type { ProposalRecord } from './records.js';
import type { Principal } from './types.js';

/** The proposal `proposalId` as `reader` sees it, refused unless it is still pending. */
export async function pendingProposal(
  reader: CanonReader,
  proposalId: string,
): Promise<ProposalRecord> {
  const proposal = await reader.proposal(proposalId);
  if (!proposal) throw new CanonryError('UNKNOWN_PROPOSAL', `no proposal ${proposalId}`);
  if (proposal.status !== 'pending') {
    throw new CanonryError('PROPOSAL_CLOSED', `proposal ${proposalId} is ${proposal.status}`);
  }
  return proposal;
}

/** Inside an append transaction: refuses with PROPOSAL_CLOSED unless the proposal is still pending. */
export async function stillPending(
  canon: Canon,
  tx: Queryable,
  project: string,
  proposalId: string,
): Promise<void> {
  const proposal = await canon.reader(project, tx).proposal(proposalId);
  if (proposal?.status !== 'pending') {
    throw new CanonryError('PROPOSAL_CLOSED', `proposal ${proposalId} is ${proposal?.status}`);
  }
}

/** Journals the rejection of a pending proposal (by a principal, or by canon itself). */
export async function closeProposal(
  canon: Canon,
  project: string,
  proposalId: string,
  by: Principal | null,
  reason: string,
): Promise<void> {
  await canon.journal.append(
    project,
    REJECT.input(
      { proposal_id: proposalId, by, reason },
      {
        actor: by?.id ?? 'canon',
        authority: by ? authorityOf(by) : { system: 'canon' },
        correlation_id: proposalId,
      },
    ),
    { precondition: (tx) => stillPending(canon, tx, project, proposalId) },
  );
}
