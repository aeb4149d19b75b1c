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

/** Whether an object is current canon's: not superseded or retired. */
export const isLive = (o: { readonly status: ObjectStatus } | null | undefined): boolean =>
  o != null && o.status !== 'superseded' && o.status !== 'retired';

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

/**
 * Roles a principal can hold in a project. A `tool` reports observations (a test run, a sensor, a
 * crawler): it proposes like an agent, corrects only what it sourced itself without a person, and never
 * approves (the matrix is in `docs/governance.md`).
 */
export const ROLES = ['owner', 'editor', 'agent', 'tool', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Roles of machines (agents and tools): they never speak as the user, accept artifacts or approve. */
export const MACHINE_ROLES: readonly Role[] = ['agent', 'tool'];

/** Object and artifact ids: lowercase, dotted or dashed, e.g. `ui.colour` or `design.identity`. */
export const OBJECT_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/**
 * Archived message ids: chosen by the client, or `msg_…` when canon mints them. Besides letters and
 * digits they take the characters source systems put in their ids (`slack:C01/p#12@x`): `_ . : - # / @`.
 * In a URL path an id is percent-encoded (`#` and `/` must be).
 */
export const MESSAGE_ID = /^[A-Za-z0-9_.:#/@-]{1,100}$/;

/** What {@link MESSAGE_ID} allows, in words (error messages and help). */
export const MESSAGE_ID_RULE = '1–100 of letters, digits and _ . : - # / @';

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
  /** The competing claims while the object is disputed, and when a version closes them (§15). */
  readonly claims?: readonly Claim[];
  /** On the version that resolved a dispute: which claim stands, and why. */
  readonly resolution?: DisputeResolution;
}

/** Where a claim of a dispute stands. */
export const CLAIM_STATES = ['open', 'stands', 'set_aside', 'collapsed'] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

/** Claim ids, as canon mints them (`claim_` and 16 hex digits). */
export const CLAIM_ID = /^claim_[0-9a-f]{16}$/;

/** One principal holding a claim: its source, and the authority under which it entered canon. */
export interface ClaimHolder {
  readonly principal: { readonly id: string; readonly role: Role };
  readonly approver: { readonly id: string; readonly role: Role } | null;
  readonly confidence_state: ConfidenceState;
  readonly sources: readonly SourceRef[];
  readonly gate: string | null;
  readonly gate_event: ContentHash | null;
  readonly proposal_id: string | null;
  /** The version that recorded this holder. */
  readonly version_id: number;
  /** That version's journal entry (`project#seq`); null only inside the version that records it. */
  readonly receipt_ref: string | null;
}

/** One of the competing statements of a disputed object: listed once, with everyone who holds it. */
export interface Claim {
  readonly claim_id: string;
  readonly statement: string;
  readonly state: ClaimState;
  /** The version that opened the dispute this claim belongs to. */
  readonly opened_in: number;
  readonly holders: readonly ClaimHolder[];
}

/** How a dispute was resolved: the claim that stands, why, and the claims set aside. */
export interface DisputeResolution {
  readonly claim_id: string;
  readonly statement: string;
  readonly rationale: string;
  readonly set_aside: readonly string[];
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
  'resolve',
] as const;
export type ProposalIntent = (typeof PROPOSAL_INTENTS)[number];

/**
 * The intents a classifier may draft: all but `resolve`, which names a claim of a dispute and says why
 * it stands — a principal's deliberate act, never read off a message.
 */
export const DRAFT_INTENTS = PROPOSAL_INTENTS.filter((i) => i !== 'resolve');

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
  /** For `resolve`: the open claim that stands (the candidate states it; `rationale` says why). */
  readonly claim_id?: string;
  /** The archived message it came from, if any. */
  readonly message_id?: string | null;
  readonly rationale?: string;
}
