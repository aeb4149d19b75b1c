/**
 * How the extractor compares statements. Two statements are the same when their normalised forms
 * are equal: Unicode NFKC, lower case, white space collapsed, surrounding quotes and trailing
 * punctuation dropped. A claim is *captured* by an item (a fact's statement; a decision's choice,
 * rationale and alternatives together) when they are the same, or when at least
 * {@link CAPTURE_OVERLAP} of the claim's content words (words of letters and digits, stop words
 * left out) appear in the item's.
 */

/** The share of a claim's content words an item must contain to capture it. */
export const CAPTURE_OVERLAP = 0.6;

const TRAILING = new Set(['.', '!', '?', ';', ':', ',', '…', '"', "'", '”', '’', ')', '*']);
const LEADING = new Set(['"', "'", '“', '‘', '*']);

/** The normal form statements are compared in. */
export function normaliseStatement(text: string): string {
  let s = text.normalize('NFKC').toLowerCase();
  let out = '';
  let space = false;
  for (const c of s) {
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') space = out !== '';
    else {
      if (space) out += ' ';
      out += c;
      space = false;
    }
  }
  s = out;
  let end = s.length;
  while (end > 0 && (TRAILING.has(s[end - 1]!) || s[end - 1] === ' ')) end--;
  let start = 0;
  while (start < end && (LEADING.has(s[start]!) || s[start] === ' ')) start++;
  return s.slice(start, end);
}

const STOP_WORDS = new Set(
  (
    'a an the and or but nor of to in on at by for with from as is are was were be been being it ' +
    'its this that these those there their they them we our us i you your he she his her which ' +
    'who whom what when where why how not no so than then too very can will would should could ' +
    'may might must do does did has have had also just only into over under about all any each'
  ).split(' '),
);

/** Letters and digits (a word may keep inner `.`, `'`, `-`: v3.5, don't, lock-in). */
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (c: string): boolean => WORD_CHAR.test(c);

/** The content words of a text: lower-cased words without stop words, as a set. */
export function contentWords(text: string): Set<string> {
  const words = new Set<string>();
  const s = text.normalize('NFKC').toLowerCase();
  let word = '';
  const end = (): void => {
    if (word !== '' && !STOP_WORDS.has(word)) words.add(word);
    word = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (isWordChar(c)) word += c;
    else if (word !== '' && (c === '.' || c === "'" || c === '-') && isWordChar(s[i + 1] ?? ' ')) {
      word += c;
    } else end();
  }
  end();
  return words;
}

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
