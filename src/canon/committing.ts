import { CanonryError, canonicalize } from '../core/index.js';
import type { AppendResult, EntryInput, Receipt } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import type { Canon } from './canon.js';
import { cascade, commitView, readableStates } from './cascade.js';
import { buildVersion, commitEntry } from './commit.js';
import { COMMIT } from './entry-kinds.js';
import { proposalAudience } from './planes.js';
import type { ProposalBody, ProposalRecord } from './records.js';
import type { NoteVersion, Principal } from './types.js';

/** What a proposal came to. */
export interface ProposalOutcome {
  readonly proposal: ProposalRecord;
  /** The version appended, when it committed. */
  readonly committed: NoteVersion | null;
  /** The journal receipt of the commit (or of the proposal, when it is pending). */
  readonly receipt: Receipt;
}

/** A commit ready to append, and the check its append transaction must pass. */
export interface PlannedCommit {
  readonly entry: EntryInput;
  /** Inside the append transaction: CONFLICT unless the cascade still lists what the receipt does. */
  readonly check: (tx: Queryable) => Promise<void>;
}

/**
 * A commit entry whose receipt lists every dependent the cascade reaches that the proposal's
 * readers may read (§14), and the check that, inside the append transaction, the cascade over
 * canon as it then stands lists exactly the same (else CONFLICT): the receipt and the states the
 * projection records come from one function over one transaction state. `db` is where canon is
 * read before the append (a batch reads it as its earlier items leave it).
 */
export async function planCommit(
  canon: Canon,
  project: string,
  proposal: ProposalBody,
  current: NoteVersion | null,
  approver: Principal | null,
  stale: readonly string[],
  db: Pick<Queryable, 'all'> = canon.journal.store,
): Promise<PlannedCommit> {
  const timestamp = canon.now().toISOString();
  const version = buildVersion(proposal, current, approver, timestamp);
  const affected = async (db: Pick<Queryable, 'all'>) => {
    const view = await commitView(db, project, version, proposal.supersedes, proposal.intent);
    return readableStates(
      canon.reader(project, db),
      await cascade(db, project, view),
      proposalAudience(proposal),
      view,
    );
  };
  const listed = await affected(db);
  return {
    entry: commitEntry(proposal, current, approver, stale, timestamp, listed, version),
    check: async (tx: Queryable) => {
      if (canonicalize(await affected(tx)) !== canonicalize(listed))
        throw new CanonryError(
          'CONFLICT',
          'the dependents of the commit changed during it; compare again',
        );
    },
  };
}

/** What each proposal came to, read back after its last entry (`last`) was appended: three statements for any number. */
export async function outcomesOf(
  canon: Canon,
  project: string,
  done: readonly { readonly proposalId: string; readonly last: AppendResult }[],
): Promise<ProposalOutcome[]> {
  const reader = canon.reader(project);
  const proposals = await reader.proposalsById(done.map((d) => d.proposalId));
  const committedIds = done
    .filter((d) => d.last.entry.kind === COMMIT.kind)
    .map((d) => proposals.get(d.proposalId)!.object_id);
  const objects = await reader.objectsById(committedIds);
  const versions = await reader.versionsByHash(
    [...objects.values()].map((o) => o.current_version_ref),
  );
  return done.map(({ proposalId, last }) => {
    const proposal = proposals.get(proposalId)!;
    const object = last.entry.kind === COMMIT.kind ? objects.get(proposal.object_id) : undefined;
    const committed = object ? (versions.get(object.current_version_ref) ?? null) : null;
    return { proposal, committed, receipt: last.receipt };
  });
}

/** What one proposal came to (see {@link outcomesOf}). */
export async function outcomeOf(
  canon: Canon,
  project: string,
  proposalId: string,
  last: AppendResult,
): Promise<ProposalOutcome> {
  const [outcome] = await outcomesOf(canon, project, [{ proposalId, last }]);
  return outcome!;
}
