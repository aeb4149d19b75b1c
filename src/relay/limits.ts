/**
 * Bounds on a Cognitive State Object. Every CSO canonry reads (a model's contribution merged, a body
 * sent over HTTP, a journaled window) is held to them, so the work any one CSO can cause — parsing,
 * sealing, walking its graph — is bounded before it starts.
 */
export const CSO_LIMITS = {
  /** established_facts */
  facts: 10_000,
  decisions: 5_000,
  /** dependency_graph */
  edges: 50_000,
  openQuestions: 1_000,
  constraints: 1_000,
  /** goal_state.remaining */
  remaining: 1_000,
  /** decisions[].alternatives */
  alternatives: 32,
  /** decisions[].depends_on */
  dependsOn: 256,
  /** fact, decision, scratch and CSO ids (characters) */
  idChars: 128,
  /** provenance_ref (characters) */
  refChars: 256,
  /** a fact's statement, a decision's choice (characters, ≤ 4 KiB of ASCII) */
  statementChars: 4_096,
  /** a decision's rationale (characters) */
  rationaleChars: 8_192,
  /** an open question, constraint, alternative, remaining item, objective or success test */
  itemChars: 2_048,
  windowNumber: 1_000_000,
  /** How many claims one verification may add as uncaptured facts. */
  uncapturedClaims: 1_000,
} as const;

/**
 * Bounds on the raw model answers a window journals for replay: at most `answers` a window, each
 * at most `answerChars` characters (what `parseContribution` reads at most). A window whose
 * answers exceed them journals none (replaying it then needs the recordings).
 */
export const ANSWER_LIMITS = {
  answers: 8,
  answerChars: 524_288,
} as const;

/** §6.3: a decision revised this many times is escalated to a person, not revised again. */
export const MAX_REVISIONS = 3;

/** The highest revision bound a session may choose. */
export const MAX_REVISIONS_CEILING = 10;

/**
 * The confidence of a fact verification adds because the window's text asserted it and the
 * contribution did not capture it: lower than any fact the window stated itself (default 1).
 */
export const UNCAPTURED_CONFIDENCE = 0.5;

/** Fact, decision and scratch ids: a charset safe in a header value, a path and a log line. */
export const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';
const ID = new RegExp(ID_PATTERN);

/** True when `value` is a well-formed relay id (see {@link ID_PATTERN}). */
export function isRelayId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}
