/** Types of score.js (plain JavaScript, shared by the bench and the floor test). */
import type { DpeInput, WindowSignals } from '../../src/dpe/index.js';
import type { CorpusItem } from './generate.js';

export const LABELS: readonly string[];
export function labelOf(s: WindowSignals): { label: string; fact_id: string | null };
export interface ClassScore {
  label: string;
  support: number;
  predicted: number;
  tp: number;
  precision: number;
  recall: number;
}
export interface CorpusScore {
  items: number;
  accuracy: number;
  perClass: ClassScore[];
  byPhenomenon: { key: string; n: number; right: number }[];
  factNamed: { right: number; of: number };
  confusion: Record<string, Record<string, number>>;
  misses: { id: string; claim: string; expected: string; got: string }[];
}
export function score(
  items: CorpusItem[],
  analyse: (input: DpeInput) => WindowSignals,
): CorpusScore;
