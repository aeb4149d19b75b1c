/**
 * The Relay Intelligence Layer's types (CRP-018 §2). The IAP is §2.3 field for field; what carries
 * from one window to the next is {@link AirState}, plain JSON, journaled with each window.
 */

/** `CRP-Safety-Policy: air-mode=…` (§6.1). */
export const AIR_MODES = ['off', 'passive', 'adaptive', 'aggressive'] as const;
export type AirMode = (typeof AIR_MODES)[number];

/** How AIR runs for a session: its mode and the IAP's token budget (§6.1). */
export interface AirPolicy {
  readonly mode: AirMode;
  readonly iap_budget: number;
}

/** One quarantined claim (§1.5): a fabrication or distortion the next windows must not repeat. */
export interface QuarantineItem {
  readonly original_claim: string;
  /** The context fact that corrects it, when one does. */
  readonly correction: string | null;
  /** "Do NOT state or imply that …. The verified fact is: …." */
  readonly prohibition: string;
}

/** A concept whose phrasings are wearing out (§1.6). */
export interface ConceptFreshness {
  readonly concept_label: string;
  /** 0.0 (exhausted) – 1.0 (fresh). */
  readonly freshness_score: number;
  /** Stands for CKF communities: ids of context facts on the concept the session has not used yet. */
  readonly preferred_communities: string[];
  /** Blacklisted n-grams that contain the concept. */
  readonly exhausted_phrasings: string[];
}

/** A §4.1 reasoning requirement for one claim type the model asserted without evidence. */
export interface ReasoningScaffold {
  readonly claim_type: string;
  readonly scaffold_prompt: string;
}

/** What remains of the task (§1.3). */
export interface GoalResidual {
  readonly original_task: string;
  readonly completed_sub_goals: string[];
  readonly remaining_sub_goals: string[];
  readonly re_anchor_injection: string;
}

/** The §1.7 per-claim epistemic annotation. */
export interface EpistemicMap {
  readonly verified_claims: string[];
  readonly unverified_claims: string[];
  readonly map_injection: string;
}

/** The n-gram blacklist and the fresh material to use instead (§1.6). */
export interface VocabularyDirectives {
  readonly forbidden_phrases: string[];
  /** Statements of context facts the session has not used yet. */
  readonly fresh_anchors: string[];
}

/**
 * The Intelligence Augmentation Packet exactly as CRP-018 §2.3. An object component that was not
 * triggered is `null`; a list component is empty.
 */
export interface Iap {
  readonly window_source: number;
  readonly error_quarantine: QuarantineItem[];
  readonly concept_freshness: ConceptFreshness[];
  readonly reasoning_scaffolds: ReasoningScaffold[];
  readonly goal_residual: GoalResidual | null;
  readonly epistemic_map: EpistemicMap | null;
  readonly vocabulary_directives: VocabularyDirectives | null;
}

/**
 * §2.2 names two actions whose components §2.3 has no field for. canonry carries them beside the
 * IAP, so the IAP itself stays §2.3 byte for byte.
 */
export interface TargetedRetrieval {
  /** The concepts of the window's ungrounded claims the facts were chosen for. */
  readonly concepts: string[];
  readonly fact_ids: string[];
  readonly injection: string;
}

/** `flow_score < 0.60` → a transition injection. */
export interface FlowBridge {
  readonly flow_score: number;
  readonly injection: string;
}

/** What one window's analysis produces for the next: the IAP and the two §2.2 extras. */
export interface AirPacket {
  readonly iap: Iap;
  readonly targeted_retrieval: TargetedRetrieval | null;
  readonly flow_bridge: FlowBridge | null;
}

/** The packet's components, in the words of §2.1–§2.2. */
export const AIR_COMPONENTS = [
  'error_quarantine',
  'targeted_retrieval',
  'goal_residual',
  'concept_freshness',
  'vocabulary_directives',
  'flow_bridge',
  'epistemic_map',
  'reasoning_scaffolds',
] as const;
export type AirComponent = (typeof AIR_COMPONENTS)[number];

/** A quarantined claim as the state keeps it. */
export interface QuarantineEntry {
  readonly original_claim: string;
  readonly correction: string | null;
  readonly fact_id: string | null;
  readonly kind: 'fabrication' | 'distortion';
  readonly window: number;
}

/** A concept's freshness as the state keeps it. */
export interface ConceptEntry {
  readonly label: string;
  readonly freshness: number;
  readonly occurrences: number;
  readonly last_window: number;
}

/** A claim of an earlier window with its attribution. */
export interface ClaimEntry {
  readonly claim: string;
  readonly claim_type: string;
  /** The fact that grounds a verified claim; null for an unverified one. */
  readonly fact_id: string | null;
  readonly window: number;
}

/** The version of {@link AirState}'s shape. */
export const AIR_STATE_VERSION = 1;

/**
 * What AIR carries across the windows of a session (plain JSON, journaled with each window). Lists
 * are bounded by {@link AIR_LIMITS}; the oldest entries leave first.
 */
export interface AirState {
  readonly version: typeof AIR_STATE_VERSION;
  /** Windows aggregated so far. */
  readonly window_count: number;
  /** Position of the last window in the current feedback loop (1 … max windows, §3.3). */
  readonly loop_position: number;
  readonly quarantine: QuarantineEntry[];
  readonly concepts: ConceptEntry[];
  readonly ngram_blacklist: string[];
  readonly verified_claims: ClaimEntry[];
  readonly unverified_claims: ClaimEntry[];
  readonly completed_sub_goals: string[];
  /** Context facts some grounded claim used: the rest are "fresh" material. */
  readonly used_fact_ids: string[];
  /** Sum of the windows' repetition ratios: cumulative ratio = sum / window_count. */
  readonly repetition_sum: number;
  /** §5.2 for the last window, 0–100; null before the first. */
  readonly session_iq: number | null;
}

/** Which components a window's signals trigger, and why none may (§2.2, §3.3). */
export interface Detection {
  readonly components: readonly AirComponent[];
  /** Quality above the maintenance threshold: only the quarantine (§3.3). */
  readonly maintenance: boolean;
  /** The window closed its feedback loop: no IAP for the next window (§3.3). */
  readonly bounded: boolean;
}
