/** Types of `scripted.js` for the TypeScript tests. */
import type { ScriptedModel } from '../../../src/models/index.js';
import type { SessionPlan, Subject } from './plan.js';
export function packetOf(prompt: string): string;
export function directivesOf(packet: string): {
  quarantined: Set<string>;
  forbidden: Set<string>;
  residual: string[];
};
export function alternates(s: Subject): string[];
export function scriptedWindow(
  plan: SessionPlan,
  n: number,
  prompt: string,
  obeys: boolean,
): { sentences: string[]; completed: string[] };
export function scriptedModel(
  plan: SessionPlan,
  options: { obeys: boolean; textOf: (s: string[]) => string },
): { model: ScriptedModel; written: { window: number; sentences: string[] }[] };
