import type { AirPolicy } from '../air/index.js';
import type { WindowSignals } from '../dpe/index.js';
import type { CsoChange } from './cso-change.js';
import type { WindowQuality } from './quality.js';
import type { CognitiveStateObject, GoalState, RelayMode, Verification } from './types.js';

/** What to do with a window whose state cannot be repaired (CRP-030 §5.2: "repair … or halt"). */
export const UNVERIFIED_POLICIES = ['regenerate', 'halt'] as const;
export type UnverifiedPolicy = (typeof UNVERIFIED_POLICIES)[number];

/**
 * The promotion (of AIR settings) a session runs under, chosen when it started: `canary` runs the
 * candidate, `baseline` what is in force without it (both are samples of the promotion's metric),
 * `promoted` a promoted artifact. `project` is the promotion's own project, where its observations
 * go; `address` is the `sha256:` of the AIR settings the session runs (RFC 8785 of `{ mode,
 * iap_budget }`).
 */
export interface SessionPromotion {
  readonly promotion_id: string;
  readonly project: string;
  readonly arm: 'canary' | 'baseline' | 'promoted';
  readonly address: string;
}

/** A relay session as it was started (the `relay.session` entry). */
export interface RelaySessionRecord {
  readonly session_id: string;
  readonly project: string;
  readonly mode: RelayMode;
  readonly objective: string;
  /** What the whole session must get through: sections, sub-tasks, questions or tool outputs (§4.2). */
  readonly remaining: readonly string[];
  readonly success_test: string | null;
  /** The agent principal the session's facts and decisions are committed as. */
  readonly agent: string;
  /** Who started it. */
  readonly started_by: string;
  /** A decision revised this many times escalates to a person instead (§6.3). */
  readonly max_revisions: number;
  readonly on_unverified: UnverifiedPolicy;
  /** AIR's mode and packet budget for the session's windows (CRP-018 §6.1); a window may override. */
  readonly air: AirPolicy;
  /**
   * The promotion its AIR settings came from (`RelayOptions.airSettingsFor`); absent when the start
   * request set AIR itself, when nothing was promoted, and on sessions journaled before promotions.
   */
  readonly promotion?: SessionPromotion;
  /** The link window 1's `prior_cso_hash` carries (`sessionGenesis`). */
  readonly genesis: string;
  readonly created_at: string;
}

/** A window's kind: ordinary work toward the goal, or a §6.2 revision of one decision. */
export type WindowKind = 'work' | 'revision';

/** A revision the window made or escalated (§6.2–§6.3), recorded as a REVISION event. */
export interface RevisionEvent {
  /** The decision revised (or escalated). */
  readonly target: string;
  /** The decision that now stands in its place; null when escalated. */
  readonly revised_by: string | null;
  /** The fact whose change made the revision due, when one did. */
  readonly new_fact: string | null;
  /** How many times the target's line of decisions has been revised, this one included. */
  readonly count: number;
  /** Escalated to a person: the canon proposal an owner must decide. */
  readonly escalation: { readonly proposal_id: string; readonly object_id: string } | null;
}

/** An item this window found no longer valid, what replaced it, and what it flagged (§3.2). */
export interface Invalidation {
  readonly id: string;
  /** The fact or tool result that stands in its place, when one does. */
  readonly by: string | null;
  /** The decisions (and facts) it flagged for revision. */
  readonly flagged: readonly string[];
}

/** One completed window (the `relay.window` entry): its CSO and how it got there. */
export interface RelayWindowRecord {
  readonly session_id: string;
  readonly window_number: number;
  readonly kind: WindowKind;
  /** For a revision window: the decision it was dispatched to revise. */
  readonly revision_target: string | null;
  readonly cso: CognitiveStateObject;
  /**
   * What is left of the session's own work after this window. The CSO's goal_state is the
   * window's contract, which a revision window narrows to its decision (§6.2); this is what the
   * next work window picks up.
   */
  readonly remaining: readonly string[];
  readonly verification: Verification;
  readonly invalidations: readonly Invalidation[];
  readonly revisions: readonly RevisionEvent[];
  /** The window's text, its hash, and the model route that wrote it (null: the caller's own). */
  readonly output: { readonly text: string; readonly hash: string; readonly model: string | null };
  /** The DPE's signals for the window's text (CRP-018 §1–§2.2), each with its evidence. */
  readonly signals: WindowSignals;
  /** What AIR made of them: its state, the IAP and the text the next window carries. */
  readonly quality: WindowQuality;
  /** The CRP-Relay-* (§5.3, §6.4, §10) and CRP-AIR-* (CRP-018 §5) headers of the window. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * One answer the model gave for a window, as journaled so a replay can stand in for the model
 * (`answers.ts`): the raw text whole; or, when it holds the window's output as a JSON string
 * literal (`JSON.stringify(output.text)`), what came before and after it (the output is journaled
 * once, in `output.text`); or that rest raw-deflated as base64, with where the output goes (`at`);
 * or `output` when the raw text is the output text itself.
 */
export type JournaledAnswer =
  | { readonly text: string }
  | { readonly before: string; readonly after: string }
  | { readonly deflated: string; readonly at?: number }
  | { readonly same: 'output' };

/**
 * A completed window as the journal holds it (`relay.window` version 2): its record with the CSO
 * as its change from the last window's (`cso-change.ts`), so a window journals what it changed.
 */
export interface RelayWindowEntry extends Omit<RelayWindowRecord, 'cso'> {
  readonly state: CsoChange;
  /** What `state.cso_hmac` was made over: the digest of digests, or (version 1) canonical bytes. */
  readonly sealed_over: 'digest' | 'bytes';
  /** Where the session stands after this window. */
  readonly status: 'active' | 'complete';
  /**
   * `sha256:` of the canonical JSON of the messages the model was asked with (the context
   * packet); absent on older entries and when the window's caller did not say what it sent.
   */
  readonly context_packet_hash?: string;
  /**
   * The model's raw answers for this window, in the order it gave them (retries and
   * regenerations included, the one taken last); absent on older entries, for a caller that did
   * not hand them in, and when they would not fit the window's bounds (`ANSWER_LIMITS`).
   */
  readonly answers?: readonly JournaledAnswer[];
}

/**
 * A window as the relay's projection serves it: its journal entry without the raw answers, which
 * only a replay reads (from the journal) and which would otherwise be stored twice.
 */
export type ProjectedWindowEntry = Omit<RelayWindowEntry, 'answers'>;

/** A journaled window as the projection keeps it: without its raw answers (the journal has them). */
export function projectedWindow(entry: RelayWindowEntry): ProjectedWindowEntry {
  const { answers: _answers, ...projected } = entry;
  return projected;
}

/** A session stopped because a window's state could not be verified (policy `halt`). */
export interface RelayHaltRecord {
  readonly session_id: string;
  readonly window_number: number;
  readonly reason: string;
  readonly verification: Verification;
}

/** Where a session stands. */
export type SessionStatus = 'active' | 'complete' | 'halted';

/** A session with where it stands and its latest state. */
export interface RelaySessionView {
  readonly session: RelaySessionRecord;
  readonly status: SessionStatus;
  readonly windows: number;
  /** The latest verified CSO (null before the first window). */
  readonly cso: CognitiveStateObject | null;
  readonly goal_state: GoalState;
}
