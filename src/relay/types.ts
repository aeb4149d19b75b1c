/**
 * The Cognitive State Object of CRP-030 §2.1 and the window contract of §4, as canonry relays them.
 * Field names are the spec's, byte for byte: a CSO leaves canonry (HTTP, MCP, the journal) exactly
 * in this shape. What canonry adds is optional and named in `src/relay/README.md`.
 */

/** The four modes a window can run in (§4.1). */
export const RELAY_MODES = ['DOCUMENT', 'CONVERSATION', 'TOOL', 'AGENTIC'] as const;
export type RelayMode = (typeof RELAY_MODES)[number];

/** Where an established fact came from (§2.1). */
export const FACT_PROVENANCES = ['CKF', 'TOOL', 'CONVERSATION', 'DERIVED', 'USER'] as const;
export type FactProvenance = (typeof FACT_PROVENANCES)[number];

/** The window contract (§4.1): what this window must achieve, and what is left. */
export interface GoalState {
  readonly mode: RelayMode;
  readonly objective: string;
  /** DOCUMENT: unwritten sections; CONVERSATION: open thread questions; TOOL: unprocessed tool
   * outputs; AGENTIC: uncompleted sub-tasks (§4.2). */
  readonly remaining: readonly string[];
  readonly success_test: string;
  /** 0.0–1.0 progress toward the overall goal. */
  readonly completion: number;
}

/** A fact the relay established (§2.1). */
export interface EstablishedFact {
  readonly fact_id: string;
  readonly statement: string;
  readonly provenance: FactProvenance;
  /** The specific source: a scratch id (TOOL), a fact id (DERIVED), a turn id (CONVERSATION), … */
  readonly provenance_ref: string;
  /** Attribution confidence, 0.0–1.0. */
  readonly confidence: number;
  readonly window_origin: number;
  /** canonry: for a TOOL fact, the hash of the tool result it states, so a refresh with another
   * value is seen as one (§8.3) and the scratch id's dependents are flagged. */
  readonly result_hash?: string;
}

/** A decision and why it was taken (§2.1, §2.2); §8.2 lets a decision cite a tool result. */
export interface Decision {
  readonly decision_id: string;
  readonly choice: string;
  /** Why: the reasoning text relay loses. */
  readonly rationale: string;
  /** What was considered and rejected. */
  readonly alternatives: readonly string[];
  /** The fact ids, decision ids and tool scratch ids this decision rests on. */
  readonly depends_on: readonly string[];
  readonly revisable: boolean;
  readonly window_origin: number;
  /** §8.2: the tool result that informed the decision, when one did. */
  readonly provenance?: FactProvenance;
  readonly provenance_ref?: string;
  /** canonry: how many times this decision has been revised (§6.3 bounds it). */
  readonly revisions?: number;
  /** canonry: the decision this one revises (§6.2: superseded, never erased). */
  readonly revises?: string;
  /** canonry: something it rests on was invalidated; a revision window is due (§3.2, §6.2). */
  readonly needs_revision?: boolean;
  /** canonry: revised too often; the canon proposal a person must decide (§6.3). */
  readonly escalated?: string;
}

/** One reasoning dependency (§3): `dependent` rests on `depends_on`. */
export interface DependencyEdge {
  readonly dependent: string;
  readonly depends_on: string;
}

/** The Cognitive State Object (§2.1). */
export interface CognitiveStateObject {
  readonly cso_id: string;
  readonly window_number: number;
  /** The predecessor's `cso_hmac`; for window 1, the session's genesis link. */
  readonly prior_cso_hash: string;
  readonly established_facts: readonly EstablishedFact[];
  readonly decisions: readonly Decision[];
  readonly open_questions: readonly string[];
  readonly constraints: readonly string[];
  readonly goal_state: GoalState;
  readonly dependency_graph: readonly DependencyEdge[];
  /** `hmac-sha256:<key id>:<hex>` over the CSO's canonical bytes without `cso_hmac` and `verified`. */
  readonly cso_hmac: string;
  /** Did verification (§5) find that this CSO preserves the prior state (after repair)? */
  readonly verified: boolean;
}

/** A CSO before it is sealed: everything but its HMAC. */
export type UnsealedCso = Omit<CognitiveStateObject, 'cso_hmac'>;

/** A fact as a window contributes it: the relay assigns ids and origin when the model did not. */
export interface FactContribution {
  readonly fact_id?: string;
  readonly statement: string;
  readonly provenance?: FactProvenance;
  readonly provenance_ref?: string;
  readonly confidence?: number;
  /** Prior fact ids this fact replaces (they stop being valid; §3.1 "actually v3.4"). */
  readonly supersedes?: readonly string[];
}

/** A decision as a window contributes it. */
export interface DecisionContribution {
  readonly decision_id?: string;
  readonly choice: string;
  readonly rationale: string;
  readonly alternatives?: readonly string[];
  readonly depends_on?: readonly string[];
  readonly revisable?: boolean;
  readonly provenance?: FactProvenance;
  readonly provenance_ref?: string;
  /** In a revision window: the decision this one revises. */
  readonly revises?: string;
}

/** A tool result a window used (§8): a node of the graph under its scratch id. */
export interface ToolResult {
  readonly scratch_id: string;
  readonly tool: string;
  /** The result's content hash (`sha256:`), so a refresh with another value is seen as one. */
  readonly result_hash: string;
  readonly summary: string;
}

/**
 * What one window adds to the state: the model's structured contribution (validated as untrusted
 * input) merged with what the deterministic extractor found in the window's text.
 */
export interface Contribution {
  readonly facts: readonly FactContribution[];
  readonly decisions: readonly DecisionContribution[];
  readonly open_questions: readonly string[];
  /** Open questions this window answered (removed from the state). */
  readonly resolved_questions: readonly string[];
  readonly constraints: readonly string[];
  /** Items of `goal_state.remaining` this window completed. */
  readonly completed: readonly string[];
  /** Fact, decision or scratch ids this window found no longer valid. */
  readonly invalidates: readonly string[];
  readonly tool_results: readonly ToolResult[];
}

/** The §5 verification of one hand-over. */
export interface Verification {
  /** |valid prior facts present| / |valid prior facts| before repair; 1 when there were none. */
  readonly preservation: number;
  /** Fact ids re-injected because the window dropped them. */
  readonly repaired: readonly string[];
  /** Decisions whose dependencies are not in the state (after repair): `decision_id → missing ids`. */
  readonly broken_dependencies: Readonly<Record<string, readonly string[]>>;
  /** Statements the window's text asserts that its contribution did not capture (then captured). */
  readonly uncaptured: readonly string[];
  /** True when the CSO relayed forward preserves every valid prior fact and every dependency. */
  readonly verified: boolean;
}
