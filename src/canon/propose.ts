import { CanonryError } from '../core/index.js';
import type { EntryInput } from '../journal/index.js';
import { requiredRole } from './approval.js';
import type { Canon } from './canon.js';
import { authorityOf, newId } from './commit.js';
import { outcomeOf, type ProposalOutcome, planCommit } from './committing.js';
import { PROPOSAL } from './entry-kinds.js';
import { refuseCycle } from './graph.js';
import { prepareProposal } from './prepare.js';
import type { CanonReader } from './read.js';
import type { ProposalBody } from './records.js';
import { expectedOf, refuseMoved } from './staleness.js';
import type { Principal, ProposalInput } from './types.js';

/** Where a proposal came from, when intake made it. */
export interface ProposalOrigin {
  readonly classifier?: string;
  readonly fromSuggestion?: boolean;
  /**
   * An intake's draft: refused (CONFLICT) when its message already has a proposal on the object, so
   * an intake resumed after it stopped part way never proposes a draft twice.
   */
  readonly draft?: boolean;
}

/** What {@link prepareProposal} made of an input. */
export type Prepared = Awaited<ReturnType<typeof prepareProposal>>;

/** The proposal entry's body for an input as {@link prepareProposal} judged it. */
export function proposalBody(
  principal: Principal,
  input: ProposalInput,
  prepared: Prepared,
  origin: ProposalOrigin,
): ProposalBody {
  const { gate } = prepared;
  return {
    proposal_id: newId('prop'),
    object_id: input.object_id,
    intent: input.intent,
    base_version: input.base_version,
    candidate: prepared.candidate,
    supersedes: input.supersedes ?? [],
    restore_version: input.restore_version ?? null,
    message_id: input.message_id ?? null,
    rationale: input.rationale ?? null,
    classifier: origin.classifier ?? null,
    from_suggestion: origin.fromSuggestion === true,
    proposer: principal,
    comparison: prepared.comparison,
    gate,
    required_role: requiredRole(gate.label),
    status: gate.label === 'REJECT' ? 'rejected' : 'pending',
    decided_by: null,
    reason: gate.label === 'REJECT' ? 'refused by the stakes gate' : null,
    ...(prepared.claim ? { claim: prepared.claim } : {}),
    ...(input.intent === 'resolve' ? { claim_id: input.claim_id! } : {}),
  };
}

/** The `canon.proposal` entry of a proposal, journaled under its proposer's authority. */
export function proposalEntry(principal: Principal, proposal: ProposalBody): EntryInput {
  return PROPOSAL.input(
    { proposal },
    {
      actor: principal.id,
      authority: authorityOf(principal),
      correlation_id: proposal.proposal_id,
    },
  );
}

/** CONFLICT when message `messageId` already has a proposal on `objectId` (one per draft). */
async function refuseDrafted(
  reader: CanonReader,
  objectId: string,
  messageId: string,
): Promise<void> {
  const made = (await reader.proposalsOn([objectId])).find((p) => p.message_id === messageId);
  if (made) {
    throw new CanonryError(
      'CONFLICT',
      `message ${messageId} already has a proposal on ${objectId}`,
      { message_id: messageId, object_id: objectId, proposal_id: made.proposal_id },
    );
  }
}

/**
 * Journals a proposal as {@link prepareProposal} judged it — with its commit in the same transaction
 * when the gate answers AUTO_COMMIT, and only if canon is inside that transaction still what it was
 * compared against. A REJECT is journaled and then refused with GATE_REFUSED.
 */
export async function submitProposal(
  canon: Canon,
  principal: Principal,
  input: ProposalInput,
  origin: ProposalOrigin,
): Promise<ProposalOutcome> {
  if (principal.role === 'viewer') throw new CanonryError('FORBIDDEN', 'viewers cannot propose');
  const fromSuggestion = origin.fromSuggestion === true;
  const prepared = await prepareProposal(canon, principal, input, fromSuggestion);
  const { gate } = prepared;
  const proposal = proposalBody(principal, input, prepared, origin);
  const commit =
    gate.label === 'AUTO_COMMIT'
      ? await planCommit(canon, principal.project, proposal, prepared.current, null, prepared.stale)
      : null;
  const entries = [proposalEntry(principal, proposal), ...(commit ? [commit.entry] : [])];
  const results = await canon.journal.appendAll(principal.project, entries, {
    precondition: async (tx) => {
      const reader = canon.reader(principal.project, tx);
      if (origin.draft === true && input.message_id) {
        await refuseDrafted(reader, input.object_id, input.message_id);
      }
      await refuseMoved(reader, expectedOf(input));
      await refuseCycle(tx, principal.project, input.object_id, prepared.candidate);
      await commit?.check(tx);
    },
  });
  if (gate.label === 'REJECT') {
    throw new CanonryError('GATE_REFUSED', 'the stakes gate refused the mutation', {
      proposal_id: proposal.proposal_id,
      label: gate.label,
    });
  }
  return outcomeOf(canon, principal.project, proposal.proposal_id, results.at(-1)!);
}
