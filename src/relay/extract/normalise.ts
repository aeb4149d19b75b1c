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

/** Any character but printable ASCII and white space (those are their own NFKC form). */
const NOT_ASCII = /[^ -~\t\n\r]/;
const fold = (text: string): string =>
  (NOT_ASCII.test(text) ? text.normalize('NFKC') : text).toLowerCase();

/**
 * Items many claims are checked against, each prepared (normalised, its words taken) only when a
 * claim might be captured by it. Every content word is a substring of its text in NFKC lower case,
 * so an item whose folded text holds too few of a claim's words can neither share enough of them
 * nor be the same statement, and is passed over without being prepared: a contribution restating
 * a thousand facts costs a substring test per fact for a claim, not a tokenisation.
 */
export class Candidates {
  readonly #texts: readonly string[];
  readonly #folded: (string | undefined)[] = [];
  readonly #prepared: (Comparable | undefined)[] = [];

  constructor(texts: readonly string[]) {
    this.#texts = texts;
  }

  /** Whether any item from `from` on captures `claim` (as {@link captures} decides). */
  capture(claim: Comparable, from = 0): boolean {
    const size = claim.words.size;
    for (let i = from; i < this.#texts.length; i++) {
      const text = this.#texts[i]!;
      if (size > 0) {
        let folded = this.#folded[i];
        if (folded === undefined) {
          folded = fold(text);
          this.#folded[i] = folded;
        }
        let found = 0;
        for (const w of claim.words) if (folded.includes(w)) found++;
        if (found / size < CAPTURE_OVERLAP) continue;
      }
      let item = this.#prepared[i];
      if (item === undefined) {
        item = comparable(text);
        this.#prepared[i] = item;
      }
      if (captures(item, claim)) return true;
    }
    return false;
  }
}
