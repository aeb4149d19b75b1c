/**
 * The governance fields every cognitive asset and every qualified cognitive event carries (GCS,
 * "Qualified Cognitive Event" and "Governance Resolution"). Enumerations are the spec's, in the
 * spec's order.
 */

/** Privacy scopes: a summary of the boundary, never authorization by itself. */
export const PRIVACY_SCOPES = [
  'local_only',
  'user_private',
  'trusted_devices',
  'enterprise_private',
  'tenant_private',
  'shared',
  'public',
  'compound',
] as const;
export type PrivacyScope = (typeof PRIVACY_SCOPES)[number];

/** The kinds of concrete boundary constraint a privacy boundary is made of. */
export const BOUNDARY_KINDS = [
  'user',
  'enterprise',
  'tenant',
  'device_group',
  'network',
  'workspace',
  'project',
] as const;
export type BoundaryKind = (typeof BOUNDARY_KINDS)[number];

export const REPLICATION_POLICIES = [
  'none',
  'trusted_devices',
  'private_subnet',
  'tenant_nodes',
  'public_swarm',
] as const;
export type ReplicationPolicy = (typeof REPLICATION_POLICIES)[number];

export const INFERENCE_POLICIES = [
  'local_only',
  'private_nodes',
  'public_with_redaction',
  'public_allowed',
] as const;
export type InferencePolicy = (typeof INFERENCE_POLICIES)[number];

export const TRAINING_POLICIES = [
  'prohibited',
  'local_only',
  'tenant_only',
  'anonymized_opt_in',
  'allowed',
] as const;
export type TrainingPolicy = (typeof TRAINING_POLICIES)[number];

export const EXPORT_POLICIES = ['prohibited', 'approval_required', 'allowed'] as const;
export type ExportPolicy = (typeof EXPORT_POLICIES)[number];

/** In `allowed_principals` or `allowed_roles`, alone: any principal (or role). */
export const ANYONE = '*';

/** One concrete constraint: usable only inside the boundary `kind` names by `id`. */
export interface BoundaryConstraint {
  readonly kind: BoundaryKind;
  readonly id: string;
}

/** The enforceable boundary: every constraint must hold (a conjunction). */
export interface PrivacyBoundary {
  readonly constraints: readonly BoundaryConstraint[];
}

/**
 * The governance an event carries and dispatch enforces. Arrays are sets, written sorted and
 * without duplicates (constraints by kind, then id) so that one governance has one hash.
 * `retention_policy` is `indefinite`, `expires-at:<ms since the epoch>` or `ref:<rule id>`.
 */
export interface Governance {
  readonly privacy_scope: PrivacyScope;
  readonly privacy_boundary: PrivacyBoundary;
  readonly allowed_principals: readonly string[];
  readonly allowed_roles: readonly string[];
  readonly replication_policy: ReplicationPolicy;
  readonly inference_policy: InferencePolicy;
  readonly training_policy: TrainingPolicy;
  readonly export_policy: ExportPolicy;
  readonly retention_policy: string;
  readonly policy_tags: readonly string[];
}

/** The transformations a source policy may authorize to make a separately governed asset. */
export const DECLASSIFICATIONS = ['redaction', 'anonymization', 'aggregation'] as const;
export type Declassification = (typeof DECLASSIFICATIONS)[number];

/**
 * A source policy's explicit authorization of one transformation: the derived asset may carry any
 * governance within `ceiling`, and only a principal holding one of `approver_roles` may make it.
 */
export interface DeclassificationRule {
  readonly transformation: Declassification;
  readonly ceiling: Governance;
  readonly approver_roles: readonly string[];
}

/**
 * A source's governance policy: the governance fields and, optionally, the declassifications it
 * authorizes. Rules never pass to what is derived by intersection.
 */
export interface GovernancePolicy extends Governance {
  readonly declassification?: readonly DeclassificationRule[];
}
