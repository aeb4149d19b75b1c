import type { ContentHash, JsonValue } from '../core/index.js';

/** The object types of LCSM §2. */
export const OBJECT_TYPES = [
  'constraint',
  'decision',
  'fact',
  'preference',
  'plan',
  'question',
  'policy',
  'permission',
  'artifact_ref',
  'dependency',
  'dispute',
  'instruction',
  'uncertainty',
] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** Where an object stands. Plural or disputed state is representable (§15). */
export const OBJECT_STATUSES = [
  'active',
  'provisional',
  'disputed',
  'superseded',
  'retired',
] as const;
export type ObjectStatus = (typeof OBJECT_STATUSES)[number];

/** How the project came to hold it: its epistemic condition (§2). Ordered from weakest to strongest. */
export const CONFIDENCE_STATES = [
  'uncertain',
  'inferred',
  'asserted',
  'sourced',
  'verified',
] as const;
export type ConfidenceState = (typeof CONFIDENCE_STATES)[number];

/** Who may see an object (§14 planes): `personal` is its principal's alone, the others are shared (see `planes.ts`). */
export const VISIBILITIES = ['project', 'personal', 'working', 'procedural'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * The visibilities an archived message may have: shared with the project, or its speaker's own. The
 * working and procedural planes say what a note is for; a message is intake, and either shared or not.
 */
export const MESSAGE_VISIBILITIES = [
  'project',
  'personal',
] as const satisfies readonly Visibility[];
export type MessageVisibility = (typeof MESSAGE_VISIBILITIES)[number];

/** Roles a principal can hold in a project. */
export const ROLES = ['owner', 'editor', 'agent', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Object and artifact ids: lowercase, dotted or dashed, e.g. `ui.colour` or `design.identity`. */
export const OBJECT_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** Archived message ids: chosen by the client, or `msg_…` when canon mints them. */
export const MESSAGE_ID = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Proposal ids, as canon mints them (`prop_` and 16 hex digits). */
export const PROPOSAL_ID = /^prop_[0-9a-f]{16}$/;

/** Whether people have accepted an artifact (§10). */
export const ACCEPTANCE_STATES = ['proposed', 'accepted', 'rejected'] as const;
export type AcceptanceState = (typeof ACCEPTANCE_STATES)[number];

/** Stakes of a mutation (§6). */
export const STAKES = ['S0', 'S1', 'S2', 'S3'] as const;
export type Stakes = (typeof STAKES)[number];

/** Who is acting: always taken from the authenticated principal, never from a payload (§6). */
export interface Principal {
  readonly id: string;
  readonly project: string;
  readonly role: Role;
}

/** An exact span of an archived message that supports an object. */
export interface SourceRef {
  readonly message_id: string;
  /** Character offsets [start, end) into the archived text. */
  readonly span: readonly [number, number];
  /** The quoted text of the span, checked against the archive when the proposal is made. */
  readonly quote: string;
}

/** One dependency at the exact version a dependent was made against. */
export interface DependencyPin {
  readonly object_id: string;
  readonly version_hash: ContentHash;
}

/** The content of one version of an object: what the candidate note says. */
export interface NoteContent {
  readonly object_type: ObjectType;
  /** A short title, e.g. "Interface colours". */
  readonly title: string;
  /** The statement itself. */
  readonly text: string;
  /** Structured fields when the domain has them (e.g. `{ "palette": ["ink", "violet"] }`). */
  readonly shape: JsonValue;
  readonly confidence_state: ConfidenceState;
  readonly status: ObjectStatus;
  readonly visibility: Visibility;
  readonly sources: readonly SourceRef[];
  readonly dependency_refs: readonly string[];
  /**
   * The exact version of each dependency the note was made against, in `dependency_refs` order
   * (canon pins an id to the dependency's current version when the proposal is made). Versions
   * committed before pins existed lack it: they were made against what was current at their commit.
   */
  readonly dependency_versions?: readonly DependencyPin[];
  readonly effective_from: string | null;
  readonly effective_until: string | null;
  /** Domains that raise stakes (identity, publication, external, legal, medical, financial, budget, …). */
  readonly tags: readonly string[];
}

/** An immutable version of a note (§3 NoteVersion). */
export interface NoteVersion {
  readonly note_id: string;
  readonly version_id: number;
  readonly parent_version_hash: ContentHash | null;
  readonly content: NoteContent;
  readonly shape: JsonValue;
  readonly sources: readonly SourceRef[];
  readonly actor: string;
  readonly authority: JsonValue;
  readonly timestamp: string;
  /** The journal entry (`project#seq`) whose receipt explains this version. */
  readonly receipt_ref: string;
  readonly version_hash: ContentHash;
}

/** The current state of a canonical object (§2 minimal fields). */
export interface CanonObject {
  readonly object_id: string;
  readonly object_type: ObjectType;
  readonly schema_version: 1;
  readonly current_version_ref: ContentHash;
  readonly version_id: number;
  readonly authority_basis: JsonValue;
  readonly confidence_state: ConfidenceState;
  readonly visibility: Visibility;
  readonly source_refs: readonly SourceRef[];
  readonly dependency_refs: readonly string[];
  readonly created_at: string;
  readonly effective_from: string | null;
  readonly effective_until: string | null;
  readonly status: ObjectStatus;
  readonly title: string;
  readonly text: string;
  /** Set when another object superseded this one. */
  readonly superseded_by: string | null;
}

/** What a proposal asks for. */
export const PROPOSAL_INTENTS = [
  'create',
  'update',
  'supersede',
  'retire',
  'restore',
  'dispute',
] as const;
export type ProposalIntent = (typeof PROPOSAL_INTENTS)[number];

/** A proposed mutation, as submitted by a classifier, an agent or a person. */
export interface ProposalInput {
  readonly object_id: string;
  readonly intent: ProposalIntent;
  /** The version the proposer compared against (null to create). Stale → CONFLICT. */
  readonly base_version: ContentHash | null;
  readonly candidate: NoteContent;
  /** For `supersede`: the objects the candidate replaces. */
  readonly supersedes?: readonly string[];
  /** For `restore`: the version whose content comes back. */
  readonly restore_version?: ContentHash;
  /** The archived message it came from, if any. */
  readonly message_id?: string | null;
  readonly rationale?: string;
}
