import type { AirMode, AirPolicy } from './types.js';

/** The §2.2/§3.3 thresholds, as one value so a caller can pass its own. */
export interface AirThresholds {
  /** `grounding_pct` below this → targeted retrieval (§2.2: 0.60). */
  readonly grounding: number;
  /** `completeness_score` below this → goal residual (§2.2: 0.70). */
  readonly completeness: number;
  /** `repetition_ratio` above this → concept freshness (§2.2: 0.03). */
  readonly repetition: number;
  /** `flow_score` below this → flow bridge (§2.2: 0.60). */
  readonly flow: number;
  /** More UNVERIFIABLE claims than this → epistemic map (§2.2: > 2). */
  readonly unverifiable: number;
  /** Window quality above this → maintenance mode, only the quarantine (§3.3: 0.85). */
  readonly maintenance: number;
  /** Windows in one feedback loop (§3.3: 5). */
  readonly max_windows: number;
}

/** CRP-018's defaults: what `adaptive` uses. */
export const AIR_THRESHOLDS: AirThresholds = Object.freeze({
  grounding: 0.6,
  completeness: 0.7,
  repetition: 0.03,
  flow: 0.6,
  unverifiable: 2,
  maintenance: 0.85,
  max_windows: 5,
});

/**
 * `aggressive` ("maximum injection", §6.1): each trigger fires earlier (a tenth more grounding,
 * completeness and flow demanded, repetition tolerated to 2 %, an epistemic map from the second
 * unverifiable claim, maintenance only above 0.92) and scaffolds cover PARAMETRIC claims too.
 */
export const AGGRESSIVE_THRESHOLDS: AirThresholds = Object.freeze({
  grounding: 0.7,
  completeness: 0.8,
  repetition: 0.02,
  flow: 0.7,
  unverifiable: 1,
  maintenance: 0.92,
  max_windows: 5,
});

/** The IAP's default token budget (§3.3, §6.1). */
export const DEFAULT_IAP_BUDGET = 512;

/** Standard AIR with the §6.1 budget. */
export const DEFAULT_AIR_POLICY: AirPolicy = Object.freeze({
  mode: 'adaptive',
  iap_budget: DEFAULT_IAP_BUDGET,
});

/** The thresholds a mode runs with (`passive` records what `adaptive` would do). */
export function thresholdsFor(mode: AirMode): AirThresholds {
  return mode === 'aggressive' ? AGGRESSIVE_THRESHOLDS : AIR_THRESHOLDS;
}

/** How many items of each list one IAP may carry, per mode ("larger injections" in aggressive). */
export interface InjectionSizes {
  readonly quarantine: number;
  readonly scaffolds: number;
  readonly examples_per_scaffold: number;
  readonly map_claims: number;
  readonly remaining_sub_goals: number;
  readonly completed_sub_goals: number;
  readonly freshness: number;
  readonly phrasings_per_concept: number;
  readonly communities_per_concept: number;
  readonly forbidden_phrases: number;
  readonly fresh_anchors: number;
  readonly targeted_facts: number;
}

export const ADAPTIVE_SIZES: InjectionSizes = Object.freeze({
  quarantine: 16,
  scaffolds: 3,
  examples_per_scaffold: 1,
  map_claims: 8,
  remaining_sub_goals: 8,
  completed_sub_goals: 8,
  freshness: 4,
  phrasings_per_concept: 3,
  communities_per_concept: 3,
  forbidden_phrases: 24,
  fresh_anchors: 4,
  targeted_facts: 4,
});

export const AGGRESSIVE_SIZES: InjectionSizes = Object.freeze({
  quarantine: 32,
  scaffolds: 6,
  examples_per_scaffold: 2,
  map_claims: 16,
  remaining_sub_goals: 16,
  completed_sub_goals: 16,
  freshness: 8,
  phrasings_per_concept: 5,
  communities_per_concept: 5,
  forbidden_phrases: 48,
  fresh_anchors: 8,
  targeted_facts: 8,
});

export function sizesFor(mode: AirMode): InjectionSizes {
  return mode === 'aggressive' ? AGGRESSIVE_SIZES : ADAPTIVE_SIZES;
}

/**
 * Bounds on what the state keeps and what one window may make AIR do. They hold whatever the DPE
 * reports: longer texts are cut, longer lists keep their newest entries.
 */
export const AIR_LIMITS = Object.freeze({
  /** Characters of a claim, fact, sub-goal or task as AIR quotes it. */
  textChars: 300,
  /** Characters of the compressed task statement. */
  taskChars: 240,
  quarantine: 32,
  concepts: 128,
  blacklist: 256,
  claims: 64,
  subGoals: 64,
  usedFacts: 1_024,
  /** Items of a window's signals or context AIR reads (claims, contradictions, n-grams, facts). */
  windowItems: 512,
  /**
   * Facts of the next window's context read to release quarantine entries (a relay state holds at
   * most 10,000); past it, an entry's fact is taken to be held.
   */
  contextFacts: 16_384,
  /** Longest fact id kept. */
  idChars: 128,
  /** Longest claim type kept (a scaffold names it). */
  claimTypeChars: 64,
  /** The largest `air-iap-budget`. */
  maxBudget: 16_384,
  /** The longest `CRP-Safety-Policy` header and its most directives. */
  policyChars: 4_096,
  policyDirectives: 64,
});

/** How much one occurrence of a concept wears it out: freshness × 0.8 per occurrence. */
export const FRESHNESS_DECAY = 0.8;
/** A concept below this freshness is exhausted and listed when repetition triggers (§1.6). */
export const FRESHNESS_FLOOR = 0.5;
