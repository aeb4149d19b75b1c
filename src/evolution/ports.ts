import type { JsonObject } from '../core/index.js';
import type { JournalEntry } from '../journal/index.js';
import type { CognitiveAsset } from './asset-types.js';
import type { DispatchPath } from './dispatch-path.js';
import type { QualifiedEvent } from './event-types.js';
import type { GovernancePolicy } from './governance-types.js';
import type { EvolutionIssue } from './issues.js';
import type { EventDraft } from './sign-event.js';

/**
 * What an asset source says about one item of an entry: the project the event is stored in (the
 * project of its origin), its source assets, and the draft's own members. The coordinator fills
 * identity, time, node and governance.
 */
export interface SourceItem {
  readonly project: string;
  readonly assets: readonly CognitiveAsset[];
  readonly draft: Pick<
    EventDraft,
    | 'event_type'
    | 'creator'
    | 'outcome'
    | 'scores'
    | 'model_and_expert_versions'
    | 'adaptive_artifact_refs'
    | 'session_id'
    | 'replay'
    | 'execution_claims'
    | 'verification_results'
  >;
}

/** What an asset source may ask of the coordinator. */
export interface SourceContext {
  /** The governance policy of a project's assets (the deployment's default, or configured). */
  governanceFor(project: string): GovernancePolicy;
}

/**
 * A port: turns journal entries of some kinds into the cognitive assets and drafts of events.
 * Canon's and the relay's live in `app` (evolution never imports them); kernel verdicts, feedback
 * and benchmark results are evolution's own. An entry may yield no item (nothing to learn) or
 * several; each item becomes exactly one event. Must be deterministic in the entry: a restart
 * reads the entry again and must get the same items. It may read (asynchronously) what the journal
 * has already made of entries up to this one — the relay's window state — never anything later.
 */
export interface AssetSource {
  readonly name: string;
  /** The stored entry kinds it reads. */
  readonly kinds: readonly string[];
  read(
    entry: JournalEntry,
    context: SourceContext,
  ): readonly SourceItem[] | Promise<readonly SourceItem[]>;
}

/** An event as a target receives it: the signed event and its source assets. */
export interface Delivery {
  readonly project: string;
  readonly event: unknown;
  readonly sources: readonly unknown[];
}

/** Why a target did not take an event: an evolution issue, or a transport failure. */
export type TargetIssue =
  | EvolutionIssue
  | { readonly code: 'TARGET_UNAVAILABLE'; readonly message: string };

/** What a target made of a delivery. */
export type TargetOutcome =
  | { readonly ok: true; readonly record: JsonObject | null }
  | { readonly ok: false; readonly issue: TargetIssue; readonly retry?: boolean };

/**
 * A port: an adaptive target, registered by name. `path` is what the target will do with an event
 * (the coordinator admits the event's governance to it before it delivers); `accepts` routes by
 * the event's type; `receive` verifies the event itself (schema, signature, effective policy,
 * boundary, source-policy linkage) before it uses it, and refuses otherwise with the reason.
 * `retry: true` on a refusal means a transient failure: the coordinator tries again.
 */
export interface EvolutionTarget {
  readonly name: string;
  readonly path: DispatchPath;
  accepts(event: QualifiedEvent): boolean;
  receive(delivery: Delivery): Promise<TargetOutcome>;
}
