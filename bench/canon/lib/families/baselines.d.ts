/** Types of baselines.js (plain JavaScript, shared by the bench and its tests). */
export interface Unit {
  id: string;
  project: string;
  actor: string;
  speaker: string;
  text: string;
}
export interface Context {
  text: string;
  units: Unit[];
}
export function lastStatement(ctx: Context, title: string): number;
export function cascadeAnswer(
  ctx: Context,
  all: { id: string; title: string }[],
  asked: string[],
): Set<string>;
export function disputeAnswer(ctx: Context, truth: unknown): { retained: boolean };
export function latestMention(ctx: Context, title: string): Unit | null;
export function decidedAnswer(ctx: Context, title: string): 'decided' | 'not decided' | 'unknown';
export function currentAnswer(ctx: Context, title: string): string | null;
