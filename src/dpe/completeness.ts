import { round } from './explain.js';
import type { Features } from './features.js';
import type { CompletenessSignal } from './types.js';

/**
 * Completeness (README "Completeness"): a `remaining` item is covered when some run of up to
 * {@link COVER_RUN} consecutive sentences of the window (headings included, code not) holds at
 * least {@link COVER_THRESHOLD} of the item's key words. `score` = covered / items (1 when nothing
 * remains). An item with no key words cannot be checked and is uncovered. Cost: the postings of the
 * items' key words in a sentence index, times the run length.
 */
export const COVER_THRESHOLD = 0.6;
export const COVER_RUN = 3;

export function completenessOf(
  items: readonly { readonly text: string; readonly features: Features }[],
  sentenceKeys: readonly ReadonlySet<string>[],
): CompletenessSignal {
  if (items.length === 0) return { score: 1, covered: [], uncovered: [] };
  const byKey = new Map<string, number[]>();
  sentenceKeys.forEach((keys, s) => {
    for (const k of keys) {
      const list = byKey.get(k);
      if (list) list.push(s);
      else byKey.set(k, [s]);
    }
  });
  const covered: string[] = [];
  const uncovered: string[] = [];
  for (const item of items) {
    const keys = item.features.keys;
    const runs = new Map<number, number>();
    for (const k of keys) {
      const starts = new Set<number>();
      for (const s of byKey.get(k) ?? []) {
        for (let start = Math.max(0, s - COVER_RUN + 1); start <= s; start++) starts.add(start);
      }
      for (const start of starts) runs.set(start, (runs.get(start) ?? 0) + 1);
    }
    let best = 0;
    for (const n of runs.values()) best = Math.max(best, n);
    if (keys.size > 0 && best / keys.size >= COVER_THRESHOLD) covered.push(item.text);
    else uncovered.push(item.text);
  }
  return { score: round(covered.length / items.length), covered, uncovered };
}
