/** Types of generate.js (plain JavaScript, shared by the bench and the floor test). */
import type { ContextFact } from '../../src/dpe/index.js';

export interface CorpusItem {
  id: string;
  phenomenon: string;
  expected: string;
  fact_id: string | null;
  claim: string;
  context: ContextFact[];
}
export const SEED: number;
export const CORPUS: string;
export function spellings(v: number, unit: string): string[];
export function generate(): CorpusItem[];
export function corpusText(): string;
