import type { ContentHash, JsonObject } from '../core/index.js';
import type { Provenance } from './asset-types.js';
import type { Governance } from './governance-types.js';

/** What an event records (GCS `event_type`). */
export const EVENT_TYPES = [
  'memory',
  'transition',
  'routing',
  'verification',
  'arbitration',
  'tool',
  'training',
  'benchmark',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Who made what the event records (GCS `creator`). */
export const CREATORS = ['user', 'model', 'expert', 'tool', 'system', 'swarm'] as const;
export type Creator = (typeof CREATORS)[number];

export const CAPABILITIES = [
  'generate',
  'judge',
  'classify',
  'rank',
  'refine',
  'infill',
  'embed',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const READOUT_KINDS = [
  'next_token',
  'candidate_readout',
  'decision_head',
  'diffusion_structured_read',
] as const;
export type ReadoutKind = (typeof READOUT_KINDS)[number];

/** The adaptive artifacts an event concerns; every member is optional (GCS). */
export interface AdaptiveArtifactRefs {
  readonly model_lineage_id?: string;
  readonly target_expert_id?: string;
  readonly capability?: Capability;
  readonly judgment_family?: string;
  readonly distillation_view_ref?: string;
  readonly state_shard_ref?: string;
  readonly branch_shard_ref?: string;
  readonly adapter_or_head_version?: string;
  readonly readout_kind?: ReadoutKind;
}

/** Outcome signals, each in [0, 1]; a score not measured is absent, not zero. */
export interface Scores {
  readonly confidence?: number;
  readonly verification?: number;
  readonly grounding?: number;
  readonly execution_success?: number;
  readonly user_feedback?: number;
}

/**
 * What a replay needs to re-execute the work an event records (GCS "Replay Contract"). canonry's
 * optional member of v1: absent on events that cannot be replayed.
 */
export interface ReplayContract {
  readonly plan_ref?: string;
  readonly components?: {
    readonly model?: string;
    readonly adapter?: string;
    readonly tokenizer_template?: string;
    readonly quantization?: string;
    readonly processor?: string;
    readonly runtime?: string;
  };
  readonly policy_versions?: readonly string[];
  readonly context_packet_hash?: ContentHash;
  readonly tool_contracts?: readonly string[];
  readonly seeds?: readonly number[];
  readonly execution_class?: string;
  readonly validators?: readonly string[];
}

/**
 * A qualified cognitive event before its signature: every field of GCS
 * `gcs.qualified-cognitive-event.v1`, and canonry's two optional members (`signing_certificate`,
 * so the event verifies from the pinned root alone, and `replay`). `created_at` is milliseconds
 * since the epoch; `signing_identity` is the fingerprint of the issuer certificate that signs.
 */
export interface QualifiedEventClaims extends Governance {
  readonly schema_version: string;
  readonly event_id: string;
  readonly request_id: string;
  readonly session_id?: string;
  readonly event_type: EventType;
  readonly source_assets: readonly string[];
  readonly source_policy_hashes: readonly ContentHash[];
  readonly model_and_expert_versions: readonly string[];
  readonly adaptive_artifact_refs: AdaptiveArtifactRefs;
  readonly policy_hash: ContentHash;
  readonly tenant_scope?: string;
  readonly owner_id?: string;
  readonly creator: Creator;
  readonly source_node: string;
  readonly provenance: Provenance;
  readonly outcome: JsonObject;
  readonly scores: Scores;
  readonly created_at: number;
  readonly signing_identity: ContentHash;
  readonly signing_certificate?: string;
  readonly replay?: ReplayContract;
}

/** A signed qualified cognitive event: Ed25519, base64url, over RFC 8785 of the claims. */
export interface QualifiedEvent extends QualifiedEventClaims {
  readonly signature: string;
}
