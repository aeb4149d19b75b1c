/** Types of `corpus.js` for the TypeScript tests. */
export interface TruthFact {
  statement: string;
}
export interface TruthDecision {
  choice: string;
  rationale: string;
}
export interface RecordedWindow {
  session: string;
  window: number;
  output: string;
  contribution: Record<string, unknown>;
  truth: { facts: TruthFact[]; decisions: TruthDecision[] };
}
export function generateCorpus(
  seed: number,
  size: { sessions: number; windows: number; facts: number; decisions: number; filler: number },
): RecordedWindow[];
export function norm(text: string): string;
export class RollingSummary {
  constructor(budget: number, count: (text: string) => number);
  budget: number;
  count: (text: string) => number;
  sentences: string[];
  add(output: string): void;
  text(): string;
}
export function availability(
  truth: { facts: TruthFact[]; decisions: TruthDecision[] },
  hasFact: (statement: string) => boolean,
  hasDecision: (d: TruthDecision) => boolean,
): { facts: number; factTotal: number; decisions: number; decisionTotal: number };
