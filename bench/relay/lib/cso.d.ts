/** Types of `cso.js` for the TypeScript tests. */
export interface GenFact {
  fact_id: string;
  statement: string;
  provenance: 'CONVERSATION' | 'DERIVED';
  provenance_ref?: string;
}
export interface GenDecision {
  decision_id: string;
  choice: string;
  rationale: string;
  alternatives: string[];
  depends_on: string[];
}
export interface StateSize {
  facts: number;
  decisions: number;
  edges: number;
  derived: number;
  perWindow: number;
}
export interface GenState {
  facts: GenFact[];
  decisions: GenDecision[];
  edges: { dependent: string; depends_on: string }[];
  size: StateSize;
}
export const TARGET_SIZE: StateSize;
export function generateState(seed: number, size?: StateSize): GenState;
export function setupContributions(state: GenState): {
  facts: GenFact[];
  decisions: GenDecision[];
  open_questions: string[];
  resolved_questions: string[];
  constraints: string[];
  completed: string[];
  invalidates: string[];
  tool_results: never[];
}[];
export function dependentsIn(
  edges: { dependent: string; depends_on: string }[],
  root: string,
): Set<string>;
export function windowContribution(
  state: GenState,
  o: { restate: number; newFacts: number; newDecisions: number; seed: number },
): {
  contribution: {
    facts: {
      fact_id: string;
      statement: string;
      provenance: string;
      provenance_ref?: string;
      supersedes?: string[];
    }[];
    decisions: GenDecision[];
    open_questions: string[];
    resolved_questions: string[];
    constraints: string[];
    completed: string[];
    invalidates: string[];
    tool_results: never[];
  };
  expect: { superseded: string; leaving: string[]; flagged: string[]; dropped: string[] };
};
