import { CanonryError, type ContentHash } from '../core/index.js';
import type { AppendResult, Journal, Receipt } from '../journal/index.js';
import { type CompiledProtocol, compileProtocol, type Kernel } from '../kernel/index.js';
import type { Queryable } from '../store/index.js';
import { commitEntry, newId } from './commit.js';
import { compareNotes } from './compare.js';
import { DEFAULT_GATE_PROTOCOL, type GateLabel, gateInput, runGate } from './gate.js';
import { CanonReader } from './read.js';
import type { ProposalRecord } from './records.js';
import type { NoteVersion, ObjectType, Principal, ProposalInput, Role } from './types.js';

/** What a proposal came to. */
export interface ProposalOutcome {
  readonly proposal: ProposalRecord;
  /** The version appended, when it committed. */
  readonly committed: NoteVersion | null;
  /** The journal receipt of the commit (or of the proposal, when it is pending). */
  readonly receipt: Receipt;
}

/** Options for {@link Canon}. */
export interface CanonOptions {
  readonly journal: Journal;
  readonly kernel: Kernel;
  /** The stakes gate; the default is {@link DEFAULT_GATE_PROTOCOL}. */
  readonly gate?: CompiledProtocol;
  readonly now?: () => Date;
}

/** Who must approve a proposal the gate held back. */
function requiredRole(label: GateLabel): Role | null {
  if (label === 'HARD_STOP') return 'owner';
  if (label === 'REQUIRE_CONFIRMATION') return 'editor';
  return null;
}

function mayApprove(role: Role, required: Role | null): boolean {
  if (required === 'owner') return role === 'owner';
  if (required === 'editor') return role === 'owner' || role === 'editor';
  return false;
}

/**
 * The LCSM governed-mutation loop over the journal: proposals are compared (§5), gated by the kernel
 * (§6), and committed as one journal entry that appends the version, writes the receipt, moves the
 * pointer and marks dependents stale (§7). Authority always comes from the principal passed in.
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

  /** A reader of one project's canon. */
  reader(project: string, db: Pick<Queryable, 'all'> = this.journal.store): CanonReader {
    return new CanonReader(db, project);
  }

  /**
   * Proposes a mutation: checks it against current canon and the archive, compares the two notes,
   * runs the gate, and journals the proposal — with its commit in the same transaction when the
   * gate answers AUTO_COMMIT. A REJECT is journaled and then refused with GATE_REFUSED.
   */
  async propose(
    principal: Principal,
    input: ProposalInput,
    origin: { classifier?: string; fromSuggestion?: boolean } = {},
  ): Promise<ProposalOutcome> {
    if (principal.role === 'viewer') throw new CanonryError('FORBIDDEN', 'viewers cannot propose');
    const reader = this.reader(principal.project);
    const prepared = await this.#prepare(reader, principal, input, origin.fromSuggestion === true);
    const gate = runGate(
      this.kernel,
      this.gate,
      gateInput(prepared.comparison, principal.role, input.intent, input.candidate.object_type),
    );
    const proposal: Omit<ProposalRecord, 'seq'> = {
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
      proposer: principal,
      comparison: prepared.comparison,
      gate,
      required_role: requiredRole(gate.label),
      status: gate.label === 'REJECT' ? 'rejected' : 'pending',
      decided_by: null,
      reason: gate.label === 'REJECT' ? 'refused by the stakes gate' : null,
    };
    const entries = [
      {
        kind: 'canon.proposal',
        body: { proposal } as never,
        actor: principal.id,
        authority: { principal: principal.id, role: principal.role, project: principal.project },
        correlation_id: proposal.proposal_id,
      },
      ...(gate.label === 'AUTO_COMMIT'
        ? [commitEntry(proposal, prepared.current, null, prepared.stale, this.#now().toISOString())]
        : []),
    ];
    const results = await this.journal.appendAll(principal.project, entries, {
      precondition: (tx) =>
        this.#unmoved(tx, principal.project, input.object_id, input.base_version),
    });
    if (gate.label === 'REJECT') {
      throw new CanonryError('GATE_REFUSED', 'the stakes gate refused the mutation', {
        proposal_id: proposal.proposal_id,
        label: gate.label,
      });
    }
    return this.#outcome(principal.project, proposal.proposal_id, results.at(-1)!);
  }

  /**
   * Approves a pending proposal. The approver must hold the role the gate asked for; an agent never
   * can. If canon moved since the comparison, the approval is stale: the proposal is compared again
   * (journaled) and STALE_APPROVAL asks for a fresh approval.
   */
  async approve(principal: Principal, proposalId: string): Promise<ProposalOutcome> {
    const reader = this.reader(principal.project);
    const proposal = await this.#pending(reader, proposalId);
    if (!mayApprove(principal.role, proposal.required_role)) {
      throw new CanonryError(
        'FORBIDDEN',
        `approving this needs the ${proposal.required_role} role`,
        {
          required_role: proposal.required_role,
        },
      );
    }
    const object = await reader.object(proposal.object_id);
    const currentHash = (object?.current_version_ref as ContentHash | undefined) ?? null;
    if (currentHash !== proposal.base_version) {
      await this.#recompare(reader, proposal, currentHash);
      throw new CanonryError(
        'STALE_APPROVAL',
        'canon moved since the comparison; review the new comparison',
        {
          proposal_id: proposal.proposal_id,
          base_version: currentHash,
        },
      );
    }
    const current = currentHash ? await reader.version(currentHash) : null;
    const stale = await this.#staleDependents(reader, proposal.object_id, currentHash);
    const [result] = await this.journal.appendAll(
      principal.project,
      [commitEntry(proposal, current, principal, stale, this.#now().toISOString())],
      {
        precondition: (tx) =>
          this.#unmoved(
            tx,
            principal.project,
            proposal.object_id,
            proposal.base_version,
            proposalId,
          ),
      },
    );
    return this.#outcome(principal.project, proposalId, result!);
  }

  /** Rejects a pending proposal: an owner or editor may, and so may its proposer (withdrawal). */
  async reject(principal: Principal, proposalId: string, reason: string): Promise<ProposalRecord> {
    const reader = this.reader(principal.project);
    const proposal = await this.#pending(reader, proposalId);
    const own = proposal.proposer.id === principal.id;
    if (!own && principal.role !== 'owner' && principal.role !== 'editor') {
      throw new CanonryError('FORBIDDEN', 'only an owner, an editor or the proposer may reject');
    }
    if (typeof reason !== 'string' || reason.length > 2_000) {
      throw new CanonryError(
        'INVALID_PROPOSAL',
        'reason must be a string of at most 2,000 characters',
      );
    }
    await this.journal.append(
      principal.project,
      {
        kind: 'canon.reject',
        body: { proposal_id: proposalId, by: principal, reason } as never,
        actor: principal.id,
        authority: { principal: principal.id, role: principal.role, project: principal.project },
        correlation_id: proposalId,
      },
      { precondition: (tx) => this.#stillPending(tx, principal.project, proposalId) },
    );
    return (await reader.proposal(proposalId))!;
  }

  /** Restores an object to an earlier version by appending a new one with its content (§3). */
  async restore(
    principal: Principal,
    objectId: string,
    versionHash: ContentHash,
    rationale?: string,
  ): Promise<ProposalOutcome> {
    const reader = this.reader(principal.project);
    const object = await reader.object(objectId);
    if (!object) throw new CanonryError('UNKNOWN_OBJECT', `no object ${objectId}`);
    const old = await reader.version(versionHash);
    if (!old || old.note_id !== objectId)
      throw new CanonryError('UNKNOWN_VERSION', `${objectId} has no version ${versionHash}`);
    return this.propose(principal, {
      object_id: objectId,
      intent: 'restore',
      base_version: object.current_version_ref,
      candidate: {
        ...old.content,
        status: old.content.status === 'superseded' ? 'active' : old.content.status,
      },
      restore_version: versionHash,
      rationale: rationale ?? `restore version ${old.version_id}`,
    });
  }

  async #prepare(
    reader: CanonReader,
    principal: Principal,
    input: ProposalInput,
    fromSuggestion: boolean,
  ) {
    const object = await reader.object(input.object_id);
    if (input.intent === 'create' && object) {
      throw new CanonryError(
        'CONFLICT',
        `${input.object_id} exists; propose an update against its current version`,
        {
          current_version: object.current_version_ref,
        },
      );
    }
    if (input.intent !== 'create' && input.intent !== 'supersede' && !object) {
      throw new CanonryError('UNKNOWN_OBJECT', `no object ${input.object_id}`);
    }
    const currentHash = (object?.current_version_ref as ContentHash | undefined) ?? null;
    if (input.base_version !== currentHash) {
      throw new CanonryError(
        'CONFLICT',
        `${input.object_id} is at ${currentHash ?? 'no version'}; compare again`,
        {
          current_version: currentHash,
        },
      );
    }
    let candidate = input.candidate;
    if (input.intent === 'restore') {
      const old = input.restore_version ? await reader.version(input.restore_version) : null;
      if (!old || old.note_id !== input.object_id)
        throw new CanonryError(
          'UNKNOWN_VERSION',
          'restore_version is not a version of this object',
        );
      candidate = {
        ...old.content,
        status: old.content.status === 'superseded' ? 'active' : old.content.status,
      };
    }
    for (const source of candidate.sources) {
      const message = await reader.message(source.message_id);
      if (!message || message.text.slice(source.span[0], source.span[1]) !== source.quote) {
        throw new CanonryError(
          'SOURCE_MISSING',
          `source ${source.message_id}[${source.span[0]}:${source.span[1]}] does not match the archive`,
        );
      }
    }
    for (const dep of candidate.dependency_refs) {
      if (!(await reader.object(dep)))
        throw new CanonryError('UNKNOWN_OBJECT', `dependency ${dep} does not exist`);
    }
    const supersededTypes: ObjectType[] = [];
    for (const id of input.supersedes ?? []) {
      const old = await reader.object(id);
      if (!old || old.status === 'superseded' || old.status === 'retired') {
        throw new CanonryError('UNKNOWN_OBJECT', `${id} is not a current object to supersede`);
      }
      supersededTypes.push(old.object_type);
    }
    const current = currentHash ? await reader.version(currentHash) : null;
    const stale = await this.#staleDependents(
      reader,
      input.object_id,
      currentHash,
      input.supersedes,
    );
    const comparison = compareNotes(current, candidate, {
      intent: input.intent,
      proposer: principal,
      dependentArtifacts: stale,
      dependentObjects: await reader.dependents(input.object_id),
      supersededTypes,
      fromSuggestion,
    });
    return { current, candidate, comparison, stale };
  }

  async #staleDependents(
    reader: CanonReader,
    objectId: string,
    version: ContentHash | null,
    supersedes: readonly string[] = [],
  ) {
    const built = version ? await reader.artifactsBuiltFrom(objectId, version) : [];
    for (const id of supersedes) built.push(...(await reader.artifactsBuiltFrom(id)));
    return [...new Set(built)].sort();
  }

  async #recompare(
    reader: CanonReader,
    proposal: ProposalRecord,
    currentHash: ContentHash | null,
  ): Promise<void> {
    const current = currentHash ? await reader.version(currentHash) : null;
    const comparison = compareNotes(current, proposal.candidate, {
      intent: proposal.intent,
      proposer: proposal.proposer,
      dependentArtifacts: await this.#staleDependents(
        reader,
        proposal.object_id,
        currentHash,
        proposal.supersedes,
      ),
      dependentObjects: await reader.dependents(proposal.object_id),
    });
    const gate = runGate(
      this.kernel,
      this.gate,
      gateInput(
        comparison,
        proposal.proposer.role,
        proposal.intent,
        proposal.candidate.object_type,
      ),
    );
    await this.journal.append(reader.project, {
      kind: 'canon.recompare',
      body: {
        proposal_id: proposal.proposal_id,
        base_version: currentHash,
        comparison,
        gate,
        required_role: requiredRole(gate.label) ?? 'editor',
      } as never,
      actor: 'canon',
      authority: { system: 'canon' },
      correlation_id: proposal.proposal_id,
    });
  }

  async #pending(reader: CanonReader, proposalId: string): Promise<ProposalRecord> {
    const proposal = await reader.proposal(proposalId);
    if (!proposal) throw new CanonryError('UNKNOWN_PROPOSAL', `no proposal ${proposalId}`);
    if (proposal.status !== 'pending')
      throw new CanonryError('PROPOSAL_CLOSED', `proposal ${proposalId} is ${proposal.status}`);
    return proposal;
  }

  /** Inside the append transaction: the object is still at the version the comparison used. */
  async #unmoved(
    tx: Queryable,
    project: string,
    objectId: string,
    base: ContentHash | null,
    proposalId?: string,
  ): Promise<void> {
    const object = await this.reader(project, tx).object(objectId);
    const now = object?.current_version_ref ?? null;
    if (now !== base) {
      throw new CanonryError(
        'CONFLICT',
        `${objectId} moved to ${now ?? 'nothing'} during the commit`,
        { current_version: now },
      );
    }
    if (proposalId) await this.#stillPending(tx, project, proposalId);
  }

  async #stillPending(tx: Queryable, project: string, proposalId: string): Promise<void> {
    const proposal = await this.reader(project, tx).proposal(proposalId);
    if (proposal?.status !== 'pending')
      throw new CanonryError('PROPOSAL_CLOSED', `proposal ${proposalId} is ${proposal?.status}`);
  }

  async #outcome(
    project: string,
    proposalId: string,
    last: AppendResult,
  ): Promise<ProposalOutcome> {
    const reader = this.reader(project);
    const proposal = (await reader.proposal(proposalId))!;
    const committed =
      last.entry.kind === 'canon.commit' ? await reader.current(proposal.object_id) : null;
    return { proposal, committed, receipt: last.receipt };
  }
}
