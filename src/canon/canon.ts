import type { ContentHash } from '../core/index.js';
import type { Journal } from '../journal/index.js';
import { type CompiledProtocol, compileProtocol, type Kernel } from '../kernel/index.js';
import type { Queryable } from '../store/index.js';
import type { Approval } from './approval.js';
import { approveProposal, rejectProposal } from './approve.js';
import { type BatchOptions, type BatchOutcome, proposeBatch } from './batch.js';
import type { CanonLookup } from './classification.js';
import type { ProposalOutcome } from './committing.js';
import { CurrentIndex } from './current-index.js';
import { DEFAULT_GATE_PROTOCOL } from './gate.js';
import { type ProposalOrigin, submitProposal } from './propose.js';
import { CanonReader } from './read.js';
import type { ProposalRecord } from './records.js';
import { resolveInput } from './resolve.js';
import { restoreInput } from './restore.js';
import type { Principal, ProposalInput } from './types.js';

/** Options for {@link Canon}. */
export interface CanonOptions {
  readonly journal: Journal;
  readonly kernel: Kernel;
  /** The stakes gate; the default is {@link DEFAULT_GATE_PROTOCOL}. */
  readonly gate?: CompiledProtocol;
  /**
   * The gate for one project's proposals, when the runtime has another in force there (a
   * promoted or canary gate policy); null keeps {@link CanonOptions.gate}. Canon knows nothing of
   * promotions: `app` fills this port. It reads on `db` (a batch's transaction, when in one).
   */
  readonly gateFor?: (
    project: string,
    db: Pick<Queryable, 'all'>,
  ) => Promise<CompiledProtocol | null>;
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
 * does it: `propose.ts` (with `prepare.ts`), `approve.ts`, `restore.ts`, `resolve.ts`.
 */
export class Canon {
  readonly journal: Journal;
  readonly kernel: Kernel;
  readonly gate: CompiledProtocol;
  readonly #now: () => Date;
  readonly #gateFor: CanonOptions['gateFor'];
  readonly #current = new CurrentIndex();

  constructor({ journal, kernel, gate, gateFor, now = () => new Date() }: CanonOptions) {
    this.journal = journal;
    this.kernel = kernel;
    this.gate = gate ?? compileProtocol(DEFAULT_GATE_PROTOCOL);
    this.#gateFor = gateFor;
    this.#now = now;
  }

  /** The gate a project's proposals are judged by now: the port's answer, else {@link gate}. */
  async gateOf(
    project: string,
    db: Pick<Queryable, 'all'> = this.journal.store,
  ): Promise<CompiledProtocol> {
    return (await this.#gateFor?.(project, db)) ?? this.gate;
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

  /**
   * The current canon (active, provisional and disputed objects) the principal may read, from the
   * index this process keeps of it, caught up with the store first: what intake classifies against.
   */
  currentFor(principal: Principal): Promise<CanonLookup> {
    return this.#current.lookup(this.reader(principal.project), principal.id);
  }

  /** A reader for a {@link Viewer}: a principal's, or the operator's for a project name. */
  readerAs(viewer: Viewer, db: Pick<Queryable, 'all'> = this.journal.store): CanonReader {
    return typeof viewer === 'string' ? this.reader(viewer, db) : this.readerFor(viewer, db);
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
    origin: ProposalOrigin = {},
  ): Promise<ProposalOutcome> {
    return submitProposal(this, principal, input, origin);
  }

  /**
   * Proposes many creations and updates as one journal transaction, all or nothing: each input is
   * prepared as {@link Canon.propose} prepares it, against canon as the earlier inputs leave it (a
   * note may depend on one the batch made earlier); every input must be AUTO_COMMIT (BATCH_HELD
   * otherwise, GATE_REFUSED for a REJECT), any refusal names its input, and a concurrent change is
   * CONFLICT — in each case nothing is journaled. `options.entries` are appended in the same
   * transaction, after the proposals and commits.
   */
  proposeBatch(
    principal: Principal,
    inputs: readonly ProposalInput[],
    options: BatchOptions = {},
  ): Promise<BatchOutcome> {
    return proposeBatch(this, principal, inputs, options);
  }

  /**
   * Approves a pending proposal. The approver must hold the role the gate asked for; an agent never
   * can. If canon moved since the comparison, the approval is stale: the proposal is compared again
   * (journaled) — or closed, when its target or what it replaces is no longer current, or a creation
   * finds its object created meanwhile — and STALE_APPROVAL asks for a fresh look. After that, only an
   * approval naming the new head as `base_version` commits (BASE_NOT_ACKNOWLEDGED otherwise): sending
   * the same request again never overwrites a version its approver has not seen.
   */
  approve(
    principal: Principal,
    proposalId: string,
    approval: Approval = {},
  ): Promise<ProposalOutcome> {
    return approveProposal(this, principal, proposalId, approval);
  }

  /** Rejects a pending proposal: an owner or editor may, and so may its proposer (withdrawal). */
  reject(principal: Principal, proposalId: string, reason: string): Promise<ProposalRecord> {
    return rejectProposal(this, principal, proposalId, reason);
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
