/**
 * How the extractor compares statements. Two statements are the same when their normalised forms
 * are equal (`normaliseStatement`, shared with the DPE). A claim is *captured* by an item (a fact's
 * statement; a decision's choice, rationale and alternatives together) when they are the same, or
 * when at least {@link CAPTURE_OVERLAP} of the claim's content words (`contentWords`: words of
 * letters and digits, stop words left out) appear in the item's.
 */
import { contentWords, normaliseStatement } from '../../dpe/index.js';

/** The share of a claim's content words an item must contain to capture it. */
export const CAPTURE_OVERLAP = 0.6;

/** A statement prepared for comparison (normalised once, not per pair). */
export interface Comparable {
  readonly normal: string;
  readonly words: ReadonlySet<string>;
}

export function comparable(text: string): Comparable {
  return { normal: normaliseStatement(text), words: contentWords(text) };
}

/** Whether `item` captures `claim` (see the rule above). */
export function captures(item: Comparable, claim: Comparable): boolean {
  if (item.normal === claim.normal) return true;
  if (claim.words.size === 0) return false;
  let shared = 0;
  for (const w of claim.words) if (item.words.has(w)) shared++;
  return shared / claim.words.size >= CAPTURE_OVERLAP;
}
