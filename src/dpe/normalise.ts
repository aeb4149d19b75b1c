/**
 * The forms text is compared in, shared by the relay's extractor and the DPE. The normal form of a
 * statement is Unicode NFKC, lower case, white space collapsed, surrounding quotes and trailing
 * punctuation dropped. Content words are lower-cased words of letters and digits (inner `.`, `'`,
 * `-` kept: v3.5, don't, lock-in) without stop words.
 */

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

export const STOP_WORDS = new Set(
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
