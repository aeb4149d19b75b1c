import { CanonryError, type ContentHash } from '../core/index.js';
import type { Journal } from '../journal/index.js';
import { type CompiledProtocol, compileProtocol, type Kernel } from '../kernel/index.js';
import type { Queryable } from '../store/index.js';
import { type Approval, acknowledged, mayApprove } from './approval.js';
import { outcomeOf, type ProposalOutcome, planCommit } from './committing.js';
import { DEFAULT_GATE_PROTOCOL } from './gate.js';
import { refuseCycle } from './graph.js';
import { staleDependents } from './judge.js';
import { closeProposal, pendingProposal, stillPending } from './pending.js';
import { proposalAudience } from './planes.js';
import { submitProposal } from './propose.js';
import { CanonReader } from './read.js';
import { recompareOrClose } from './recompare.js';
import type { ProposalRecord } from './records.js';
import { resolveInput } from './resolve.js';
import { restoreInput } from './restore.js';
import { expectedOf, movedSince, refuseMoved } from './staleness.js';
import type { Principal, ProposalInput } from './types.js';

/** Options for {@link Canon}. */
export interface CanonOptions {
  readonly journal: Journal;
  readonly kernel: Kernel;
  /** The stakes gate; the default is {@link DEFAULT_GATE_PROTOCOL}. */
  readonly gate?: CompiledProtocol;
  readonly now?: () => Date;
}

/**
 * Who is reading: a principal, who sees what its planes allow (§14), or — for operator tools that
 * hold the data directory (the CLI's journal commands, benchmarks, the demo) — a project name, which
 * reads every plane. Whatever answers a principal (HTTP, `canonry canon`) passes the principal.
 */
export type Viewer = Principal | string;

/**
 * The LCSM governed-mutation loop over the journal: proposals are compared (§5), gated by the kernel
 * (§6), and committed as one journal entry that appends the version, writes the receipt, moves the
 * pointer and marks dependents stale (§7). Authority always comes from the principal passed in.
 * Every commit re-checks, inside its transaction, that canon is still what the comparison saw.
 *
 * `Canon` holds the journal, the kernel, the gate and the clock, and routes each act to the file that
 * does it: `propose.ts` (with `prepare.ts`), `restore.ts`, `resolve.ts`.
 */
export class Canon {
  readonly journal: Journal;
  readonly kernel: Kernel;
  readonly gate: CompiledProtocol;
  readonly #now: () => Date;

  constructor({ journal, kernel, gate, now = () => new Date() }: CanonOptions) {
    this.journal = journal;
    this.kernel = kernel;
    this.gate = gate ?? compileProtocol(DEFAULT_GATE_PROTOCOL);
    this.#now = now;
  }

  /**
   * The operator's reader of one project's canon: every plane. Canon's own checks use it; anything
   * answering a principal uses {@link Canon.readerFor}.
   */
  reader(project: string, db: Pick<Queryable, 'all'> = this.journal.store): CanonReader {
    return new CanonReader(db, project);
  }

  /** A reader of the principal's project that sees only what the principal may read (§14). */
  readerFor(principal: Principal, db: Pick<Queryable, 'all'> = this.journal.store): CanonReader {
    return new CanonReader(db, principal.project, principal.id);
  }

  /** A reader for a {@link Viewer}: a principal's, or the operator's for a project name. */
  readerAs(viewer: Viewer): CanonReader {
    return typeof viewer === 'string' ? this.reader(viewer) : this.readerFor(viewer);
  }

  /** Canon's clock (injected for tests): what "now" is for effective windows (§2) and timestamps. */
  now(): Date {
    return this.#now();
  }

  /**
   * Proposes a mutation: checks it against current canon and the archive, compares the two notes,
   * runs the gate, and journals the proposal — with its commit in the same transaction when the
   * gate answers AUTO_COMMIT. A REJECT is journaled and then refused with GATE_REFUSED.
   */
  propose(
    principal: Principal,
    input: ProposalInput,
    origin: { classifier?: string; fromSuggestion?: boolean } = {},
  ): Promise<ProposalOutcome> {
    return submitProposal(this, principal, input, origin);
  }

  /**
   * Approves a pending proposal. The approver must hold the role the gate asked for; an agent never
   * can. If canon moved since the comparison, the approval is stale: the proposal is compared again
   * (journaled) — or closed, when its target or what it replaces is no longer current, or a creation
   * finds its object created meanwhile — and STALE_APPROVAL asks for a fresh look. After that, only an
   * approval naming the new head as `base_version` commits (BASE_NOT_ACKNOWLEDGED otherwise): sending
   * the same request again never overwrites a version its approver has not seen.
   */
  async approve(
    principal: Principal,
    proposalId: string,
    approval: Approval = {},
  ): Promise<ProposalOutcome> {
    const reader = this.reader(principal.project);
    // A proposal the approver cannot read (someone's personal note) does not exist for them.
    const proposal = await pendingProposal(this.readerFor(principal), proposalId);
    if (!mayApprove(principal.role, proposal.required_role)) {
      throw new CanonryError(
        'FORBIDDEN',
        `approving this needs the ${proposal.required_role} role`,
        {
          required_role: proposal.required_role,
        },
      );
    }
    const expected = expectedOf(proposal);
    const moved = await movedSince(reader, expected);
    if (moved !== null) {
      const { closed, base } = await recompareOrClose(this, reader, proposal, moved);
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
    const commit = await planCommit(this, principal.project, proposal, current, principal, stale);
    const [result] = await this.journal.appendAll(principal.project, [commit.entry], {
      precondition: async (tx) => {
        await stillPending(this, tx, principal.project, proposalId);
        await refuseMoved(this.reader(principal.project, tx), expected);
        await refuseCycle(tx, principal.project, proposal.object_id, proposal.candidate);
        await commit.check(tx);
      },
    });
    return outcomeOf(this, principal.project, proposalId, result!);
  }

  /** Rejects a pending proposal: an owner or editor may, and so may its proposer (withdrawal). */
  async reject(principal: Principal, proposalId: string, reason: string): Promise<ProposalRecord> {
    const reader = this.readerFor(principal);
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
    await closeProposal(this, principal.project, proposalId, principal, reason);
    return (await reader.proposal(proposalId))!;
  }

  /**
   * Restores an object to an earlier version, named by its hash or its number (`version_id`), by
   * appending a new one with its content (§3).
   */
  async restore(
    principal: Principal,
    objectId: string,
    version: ContentHash | number,
    rationale?: string,
  ): Promise<ProposalOutcome> {
    const input = await restoreInput(this.readerFor(principal), objectId, version, rationale);
    return this.propose(principal, input);
  }

  /**
   * Resolves a dispute: proposes the object's current content stating the open claim `claimId`, with
   * the rationale that says why it stands (§15). Gated like any proposal (an agent's waits for an
   * editor or the owner); the other claims are set aside and stay in history.
   */
  async resolve(
    principal: Principal,
    objectId: string,
    claimId: string,
    rationale: string,
  ): Promise<ProposalOutcome> {
    const input = await resolveInput(this.readerFor(principal), objectId, claimId, rationale);
    return this.propose(principal, input);
  }
}
