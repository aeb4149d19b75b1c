import type { ContentHash } from '../core/index.js';
import type { ArchivedMessage } from './classification.js';
import type { ScriptedConfig } from './classify/index.js';
import type { Comparison } from './compare.js';
import type { GateVerdict } from './gate.js';
import type {
  ConfidenceState,
  NoteContent,
  NoteVersion,
  Principal,
  ProposalIntent,
  Role,
  SourceRef,
} from './types.js';

/** The competing claim a `dispute` proposal carries (its candidate's statement, sources, confidence). */
export interface ClaimInput {
  readonly statement: string;
  readonly sources: readonly SourceRef[];
  readonly confidence_state: ConfidenceState;
}

/** Where a proposal stands. */
export type ProposalStatus = 'pending' | 'committed' | 'rejected';

/** A proposal as canon keeps it: the request, its two-note comparison and the signed gate verdict. */
export interface ProposalRecord {
  readonly proposal_id: string;
  readonly object_id: string;
  readonly intent: ProposalIntent;
  readonly base_version: ContentHash | null;
  readonly candidate: NoteContent;
  readonly supersedes: readonly string[];
  readonly restore_version: ContentHash | null;
  readonly message_id: string | null;
  readonly rationale: string | null;
  readonly classifier: string | null;
  /** Whether it came from a suggestion (an assistant's or agent's message); kept for recomparison. */
  readonly from_suggestion: boolean;
  readonly proposer: Principal;
  readonly comparison: Comparison;
  readonly gate: GateVerdict;
  /**
   * Who must approve it now: set only while it is pending and held back by the gate (null once it
   * committed or was rejected, so nothing closed reads as waiting). `approval_role` keeps the answer.
   */
  readonly required_role: Role | null;
  /** The role the gate (or a re-comparison) asked to approve it, kept after it closes. */
  readonly approval_role: Role | null;
  /**
   * Set when canon moved and the proposal was compared again: the version (the new head) an approval
   * must name as its `base_version`, acknowledging what the proposal would now overwrite.
   */
  readonly approval_requires_base: ContentHash | null;
  readonly status: ProposalStatus;
  readonly decided_by: Principal | null;
  readonly reason: string | null;
  /** For `dispute`: the competing claim (the candidate keeps the disputed statement, status disputed). */
  readonly claim?: ClaimInput;
  /** For `resolve`: the claim that stands. */
  readonly claim_id?: string;
  readonly seq: number;
}

/** A proposal as its `canon.proposal` entry carries it; the projection derives the approval fields. */
export type ProposalBody = Omit<ProposalRecord, 'seq' | 'approval_role' | 'approval_requires_base'>;

/** The §7 journal-operation fields carried by every commit. */
export interface JournalOperation {
  readonly operation_id: string;
  readonly operation_type: ProposalIntent;
  readonly target_object: string;
  readonly prior_version: ContentHash | null;
  readonly candidate_version: ContentHash;
  readonly acting_actor: string;
  readonly authority_basis: { readonly proposer: Principal; readonly approver: Principal | null };
  readonly source_refs: readonly string[];
  readonly policy_result: {
    readonly label: string;
    readonly event_hash: ContentHash | null;
    readonly protocol_hash: ContentHash;
  };
  readonly timestamp: string;
  readonly correlation_id: string;
}

/** The body of a `canon.commit` entry. */
export interface CommitBody {
  readonly proposal_id: string;
  readonly version: Omit<NoteVersion, 'receipt_ref'>;
  readonly supersedes: readonly string[];
  readonly operation: JournalOperation;
  readonly stale_artifacts: readonly string[];
}

/** The body of a `canon.classifier` entry: a project's scripted-classifier configuration, whole. */
export interface ClassifierBody {
  readonly config: ScriptedConfig;
  /** Who changed it; null when it was imported from the data directory's file. */
  readonly by: Principal | null;
  readonly source: 'api' | 'file';
}

/** A `canon.classifier` entry as its projection keeps it. */
export interface ClassifierRecord extends ClassifierBody {
  readonly at: string;
  readonly seq: number;
}

/** Entry bodies by kind. */
export interface CanonEntryBodies {
  'canon.message': { readonly message: Omit<ArchivedMessage, 'seq'> };
  'canon.proposal': { readonly proposal: ProposalBody };
  'canon.recompare': {
    readonly proposal_id: string;
    readonly base_version: ContentHash | null;
    readonly comparison: Comparison;
    readonly gate: GateVerdict;
    readonly required_role: Role | null;
  };
  'canon.commit': CommitBody;
  'canon.reject': {
    readonly proposal_id: string;
    readonly by: Principal | null;
    readonly reason: string;
  };
  'canon.classifier': ClassifierBody;
  'canon.artifact': {
    readonly manifest: import('./artifacts.js').ArtifactManifest;
    readonly by: Principal;
  };
}
