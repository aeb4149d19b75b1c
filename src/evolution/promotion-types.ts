import type { ContentHash, JsonObject } from '../core/index.js';
import type { SignedDocument } from '../trust/index.js';

/** canonry's own adaptive artifacts that go through the pipeline (ARCHITECTURE "Evolution"). */
export const PROMOTION_ARTIFACT_KINDS = [
  'agentic_protocol',
  'gate_policy',
  'air_settings',
] as const;
export type PromotionArtifactKind = (typeof PROMOTION_ARTIFACT_KINDS)[number];

/**
 * Where a promotion stands (GCS "Promotion Contract"): candidate → validated (replay) → checked
 * (policy and safety) → published (signed, content-addressed) → canary → promoted | rolled_back.
 * `rejected` is where a failed validation or check stops it.
 */
export const PROMOTION_STAGES = [
  'candidate',
  'validated',
  'checked',
  'published',
  'canary',
  'promoted',
  'rolled_back',
  'rejected',
] as const;
export type PromotionStage = (typeof PROMOTION_STAGES)[number];

/** Which sessions see the candidate: a share of sessions by hash of their id, and named projects. */
export interface CanaryScope {
  /** In [0, 1]: the share of sessions (by a deterministic hash of the session id). */
  readonly share: number;
  /** Projects whose every session is in the canary. */
  readonly projects: readonly string[];
}

/**
 * The outcome metric the canary is judged by (higher is better, in [0, 1]: a verification rate, a
 * preservation, AIR's session IQ), against the baseline's. After `min_samples` in at least
 * `min_observations` observations on both arms, a canary mean below the baseline's by more than
 * `margin` rolls back on its own; otherwise it is promoted.
 */
export interface CanaryMetric {
  readonly name: string;
  readonly margin: number;
  readonly min_samples: number;
  /**
   * Observations each arm needs before the canary decides (at least
   * {@link CANARY_EVIDENCE}.minObservations): no decision rests on one report. Filled in when
   * proposed, so the journaled candidate carries the rule it is judged by; absent only from a
   * promotion proposed before the rule, which is judged as it was (one observation).
   */
  readonly min_observations?: number;
  /**
   * Most samples one observation may claim (default `min_samples`): a report claiming more is
   * refused. Filled in when proposed; absent only from a promotion proposed before the rule.
   */
  readonly max_observation_samples?: number;
}

/**
 * The evidence a canary's decision needs (the GCS spec names "reputation and outcome monitoring"
 * and leaves the numbers to the target): several reports per arm, none claiming more than the
 * sample it is checked against.
 */
export const CANARY_EVIDENCE = { minObservations: 3, maxObservations: 100_000 } as const;

/** What a promotion starts from: the artifact and how it is to be tried. */
export interface PromotionCandidate {
  readonly promotion_id: string;
  readonly artifact_kind: PromotionArtifactKind;
  /** The artifact's content (a protocol bundle, AIR settings). */
  readonly artifact: JsonObject;
  /** The address of the artifact it would replace, if any. */
  readonly baseline: ContentHash | null;
  readonly canary: CanaryScope;
  readonly metric: CanaryMetric;
  /** Ids of the recorded events its replay validation re-executes. */
  readonly replay_events: readonly string[];
}

/** What a publication signs: the artifact's address, bound to its promotion. */
export interface PublicationClaims {
  readonly type: 'canonry/promotion-publication';
  readonly v: 1;
  readonly promotion_id: string;
  readonly artifact_kind: PromotionArtifactKind;
  /** `sha256:` over the RFC 8785 bytes of the artifact. */
  readonly address: ContentHash;
  readonly baseline: ContentHash | null;
}

/** A signed, content-addressed publication (Ed25519 by the node's issuer, verifiable offline). */
export type Publication = SignedDocument<PublicationClaims>;

/** One replay of validation that did not match (or could not run). */
export interface ValidationFailure {
  readonly event_id: string;
  /** The first difference's path, or the error code that stopped the replay. */
  readonly reason: string;
}

/** One step of a promotion: the body of an `evolution.promotion` entry, less its id. */
export type PromotionStep =
  | { readonly step: 'propose'; readonly candidate: PromotionCandidate }
  | {
      readonly step: 'validate';
      readonly passed: boolean;
      readonly replayed: number;
      readonly failures: readonly ValidationFailure[];
    }
  | { readonly step: 'check'; readonly passed: boolean; readonly reasons: readonly string[] }
  | { readonly step: 'publish'; readonly publication: Publication }
  | { readonly step: 'canary' }
  | {
      readonly step: 'observe';
      readonly arm: 'canary' | 'baseline';
      /** The mean of the metric over `samples` sessions. */
      readonly value: number;
      readonly samples: number;
    }
  | { readonly step: 'promote'; readonly automatic: boolean; readonly reason: string }
  | { readonly step: 'roll_back'; readonly automatic: boolean; readonly reason: string };

export type PromotionStepName = PromotionStep['step'];

/** The running totals of one arm of the canary. */
export interface ArmTotals {
  readonly samples: number;
  readonly sum: number;
  /** How many observations these samples came in. */
  readonly observations: number;
}

/** A promotion as its steps leave it. */
export interface PromotionState {
  readonly promotion_id: string;
  readonly artifact_kind: PromotionArtifactKind;
  readonly address: ContentHash;
  readonly candidate: PromotionCandidate;
  readonly stage: PromotionStage;
  /** Where a rejected promotion stopped. */
  readonly rejected_at: 'validation' | 'policy' | null;
  readonly publication: Publication | null;
  readonly arms: { readonly canary: ArmTotals; readonly baseline: ArmTotals };
  /** Why it was rejected, promoted or rolled back. */
  readonly reason: string | null;
  /** How many observations the arms hold in all (the history keeps the latest of them). */
  readonly observed: number;
  /**
   * Every step taken, with the stage it left; an observation keeps its numbers (the canary over
   * time) — the latest `MAX_OBSERVATION_HISTORY` (256) observations, every other step.
   */
  readonly history: readonly {
    readonly step: PromotionStepName;
    readonly stage: PromotionStage;
    readonly seq: number | null;
    readonly observation?: {
      readonly arm: 'canary' | 'baseline';
      readonly value: number;
      readonly samples: number;
    };
  }[];
}
