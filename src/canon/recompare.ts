import type { ContentHash } from '../core/index.js';
import { requiredRole } from './approval.js';
import type { Canon } from './canon.js';
import { RECOMPARE } from './entry-kinds.js';
import { judge } from './judge.js';
import { closeProposal, stillPending } from './pending.js';
import type { CanonReader } from './read.js';
import type { ProposalRecord } from './records.js';
import { expectedOf, refuseMoved } from './staleness.js';
import { isLive } from './types.js';

/** What a stale approval did to its proposal: closed it, or compared it again against `base`. */
export interface Recompared {
  readonly closed: boolean;
  readonly base: ContentHash | null;
}

/**
 * A stale approval (canon moved, `why`): when the target and what it replaces are still current, the
 * proposal is compared again against the new version (journaled, for a fresh approval); otherwise it
 * can no longer apply and is closed. Returns whether it was closed and the version it now compares
 * against. `reader` is the operator's.
 */
export async function recompareOrClose(
  canon: Canon,
  reader: CanonReader,
  proposal: ProposalRecord,
  why: string,
): Promise<Recompared> {
  const object = await reader.object(proposal.object_id);
  if (proposal.base_version === null && object !== null) {
    // It would create what now exists: a conflict, never a silent second version.
    await closeProposal(
      canon,
      reader.project,
      proposal.proposal_id,
      null,
      `conflict: ${proposal.object_id} was created since the comparison (version ${object.version_id}); propose an update against it`,
    );
    return { closed: true, base: proposal.base_version };
  }
  // A dispute answers one statement, a resolution one set of claims: once the object moved, each
  // must be proposed again against what it now says.
  const claimBound = proposal.intent === 'dispute' || proposal.intent === 'resolve';
  const targetGone =
    claimBound || (proposal.intent !== 'restore' && object !== null && !isLive(object));
  let replacedGone = false;
  for (const id of proposal.supersedes) replacedGone ||= !isLive(await reader.object(id));
  if (targetGone || replacedGone) {
    await closeProposal(
      canon,
      reader.project,
      proposal.proposal_id,
      null,
      `no longer applies: ${why}`,
    );
    return { closed: true, base: proposal.base_version };
  }
  const currentHash = (object?.current_version_ref as ContentHash | undefined) ?? null;
  const { comparison, gate } = await judge(
    canon.kernel,
    await canon.gateOf(reader.project),
    reader,
    currentHash,
    proposal,
  );
  const expected = { ...expectedOf(proposal), base: currentHash };
  await canon.journal.append(
    reader.project,
    RECOMPARE.input(
      {
        proposal_id: proposal.proposal_id,
        base_version: currentHash,
        comparison,
        gate,
        required_role: requiredRole(gate.label) ?? 'editor',
      },
      { actor: 'canon', authority: { system: 'canon' }, correlation_id: proposal.proposal_id },
    ),
    {
      precondition: async (tx) => {
        await stillPending(canon, tx, reader.project, proposal.proposal_id);
        await refuseMoved(canon.reader(reader.project, tx), expected);
      },
    },
  );
  return { closed: false, base: currentHash };
}
