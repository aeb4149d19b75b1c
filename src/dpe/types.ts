/**
 * What the Decision Provenance Engine reports about one window (CRP-018 §1–§2.2; SPEC-005 is not in
 * the set, so canonry defines the engine from the signals CRP-018 consumes). Every signal carries
 * its evidence — which claim, which fact, which n-gram — so a person can check it.
 */

/** How a claim stands against the session's context (§1.7). */
export const ATTRIBUTIONS = ['CONTEXT_GROUNDED', 'PARAMETRIC', 'UNVERIFIABLE'] as const;
export type Attribution = (typeof ATTRIBUTIONS)[number];

/** A fact the window may be checked against: the CSO's facts, sourced canon, tool results. */
export interface ContextFact {
  readonly id: string;
  readonly statement: string;
  /** Where it came from (`cso`, `canon`, `tool`, …), shown in explanations. */
  readonly source: string;
}

/** One claim of the window and how it stands. */
export interface ClaimSignal {
  /** Index of the claim in the window's claims. */
  readonly index: number;
  readonly text: string;
  readonly attribution: Attribution;
  /** 0.0–1.0: how sure the attribution is. */
  readonly confidence: number;
  /** The context fact that grounds (or is contradicted by) the claim, when one does. */
  readonly fact_id: string | null;
  /** A coarse claim type for reasoning scaffolds (§4.1): `statistic`, `version`, `comparison`, … */
  readonly claim_type: string;
  readonly explanation: string;
}

/** What kind of contradiction a distortion or fabrication is. */
export const CONTRADICTIONS = ['number', 'unit', 'negation', 'entity'] as const;
export type Contradiction = (typeof CONTRADICTIONS)[number];

/**
 * A claim that contradicts a context fact: a distortion changes a number, unit, negation or named
 * entity of a fact it otherwise matches; a fabrication asserts a specific number or entity no
 * context fact supports where the context covers the subject.
 */
export interface ContradictionSignal {
  readonly kind: 'fabrication' | 'distortion';
  readonly contradiction: Contradiction;
  readonly claim_index: number;
  readonly claim: string;
  /** The fact it contradicts (a distortion always has one). */
  readonly fact_id: string | null;
  readonly fact: string | null;
  /** What differs: the claim's token and the fact's (`"3.5" vs "3.4"`). */
  readonly claimed: string;
  readonly expected: string | null;
  readonly explanation: string;
}

/** Repetition within the window and against earlier windows (§1.6, §3.1). */
export interface RepetitionSignal {
  /** Repeated 6-grams / all 6-grams of the window (0 when the window has none). */
  readonly ratio: number;
  /** The repeated 6-grams with how often they occur (within and against earlier windows). */
  readonly ngrams: readonly {
    readonly ngram: string;
    readonly count: number;
    readonly earlier: boolean;
  }[];
  /** Sentences that repeat one of this window or an earlier one (normalised). */
  readonly duplicate_sentences: readonly { readonly sentence: string; readonly earlier: boolean }[];
  /** Duplicate sentences / sentences. */
  readonly duplicate_ratio: number;
}

/** How much of what remains the window covered (§1.3, DPE Stage 8). */
export interface CompletenessSignal {
  readonly score: number;
  readonly covered: readonly string[];
  readonly uncovered: readonly string[];
}

/** All of one window's signals. */
export interface WindowSignals {
  readonly window_number: number;
  readonly claims: readonly ClaimSignal[];
  readonly contradictions: readonly ContradictionSignal[];
  readonly fabrication_count: number;
  readonly distortion_count: number;
  /** CONTEXT_GROUNDED claims / claims (1 when there are none). */
  readonly grounding_pct: number;
  readonly unverifiable_count: number;
  readonly repetition: RepetitionSignal;
  readonly completeness: CompletenessSignal;
  /** 0.0–1.0: how well the window's sentences connect (§2.2 flow_score). */
  readonly flow_score: number;
  /** 0.0–1.0: one quality score for the window (maintenance mode above 0.85, §3.3). */
  readonly quality: number;
  /**
   * The text, the context, `remaining` or the earlier windows were longer than the engine reads
   * (DPE_LIMITS): the signals are about what was read.
   */
  readonly truncated: boolean;
}

/** What the engine is given for one window. */
export interface DpeInput {
  readonly window_number: number;
  readonly text: string;
  readonly context: readonly ContextFact[];
  /** What the window was meant to cover (`goal_state.remaining`). */
  readonly remaining: readonly string[];
  /** The texts of earlier windows of the session, oldest first (repetition against them). */
  readonly earlier: readonly string[];
}
