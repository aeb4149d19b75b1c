/** Types of `plan.js` for the TypeScript tests. */
export type DistortionKind = 'number' | 'unit' | 'negation' | 'entity';
export type ProblemKind = 'fabrication' | 'distortion' | 'repetition' | 'drift';
export const DISTORTIONS: readonly DistortionKind[];
export const PROBLEMS: readonly ProblemKind[];
export interface PlanFact {
  fact_id: string;
  statement: string;
}
export type Injection =
  | { kind: 'fabrication'; claim: string; fact_id: string }
  | {
      kind: 'distortion';
      claim: string;
      fact_id: string;
      contradiction: DistortionKind;
      fact: string;
    }
  | { kind: 'repetition'; sentences: string[]; from: number }
  | { kind: 'drift'; item: string };
export interface Subject {
  name: string;
  item: string;
  facts: Record<DistortionKind, PlanFact>;
  sentences: string[];
}
export interface PlanWindow {
  window: number;
  item: string;
  covers: boolean;
  sentences: string[];
  injected: Injection[];
}
export interface SessionPlan {
  seed: number;
  objective: string;
  items: string[];
  facts: PlanFact[];
  subjects: Subject[];
  windows: PlanWindow[];
}
export function rng(seed: number): () => number;
export function generateSession(seed: number, options?: { windows?: number }): SessionPlan;
export function textOf(sentences: readonly string[]): string;
export function contributionOf(
  plan: SessionPlan,
  w: PlanWindow,
): { facts: { fact_id: string; statement: string; provenance: string }[]; completed: string[] };
