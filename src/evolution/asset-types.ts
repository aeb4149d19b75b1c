import type { ContentHash } from '../core/index.js';
import type { Declassification, GovernancePolicy } from './governance-types.js';

/**
 * What canonry's completed work becomes when it is used for learning (issue 17): the journal's
 * kernel verdicts, relay windows, canon commits, user feedback and benchmark results, events
 * themselves, and assets derived by an authorized declassification.
 */
export const ASSET_KINDS = [
  'kernel.verdict',
  'relay.window',
  'canon.commit',
  'user.feedback',
  'benchmark.result',
  'qualified-event',
  'declassified',
] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

/** Provenance references, as asset ids; sets, sorted, without duplicates. */
export interface Provenance {
  readonly derived_from: readonly string[];
  readonly execution_claims: readonly string[];
  readonly verification_results: readonly string[];
}

/** Where in a project's journal an asset was recorded. */
export interface JournalRef {
  readonly project: string;
  readonly seq: number;
  readonly hash: ContentHash;
}

/** How a declassified asset came to be: its source, the source's policy and who approved. */
export interface DeclassificationRecord {
  readonly asset_id: string;
  readonly policy_hash: ContentHash;
  readonly transformation: Declassification;
  readonly approved_by: string;
}

/**
 * A Cognitive Asset as governance resolution sees it: an identity, what it is, the hash of its
 * content (the asset is referenced, never copied into an event), its governance policy and its
 * provenance. `created_at` is milliseconds since the epoch.
 */
export interface CognitiveAsset {
  readonly asset_id: string;
  readonly asset_kind: AssetKind;
  readonly content_hash: ContentHash;
  readonly created_at: number;
  readonly source_node?: string;
  readonly tenant_scope?: string;
  readonly owner_id?: string;
  readonly journal_ref?: JournalRef;
  readonly governance: GovernancePolicy;
  readonly provenance: Provenance;
  readonly declassified_from?: DeclassificationRecord;
}
