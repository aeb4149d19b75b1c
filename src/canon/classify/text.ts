/** A sentence of a message, with its exact UTF-16 offsets `[start, end)` into the message text. */
export interface Sentence {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const TERMINAL = '.!?';
const CLOSERS = `"')]\u2019\u201d`;
const WORD = '[\\p{L}\\p{N}_]';
const WORD_START = /^[\p{L}\p{N}_]/u;
const WORD_END = /[\p{L}\p{N}_]$/u;
const SPACE = /\s/u;

/**
 * Splits text into sentences: a sentence ends at a newline, or after a run of `.`, `!` or `?` (and any
 * closing quotes or brackets) followed by whitespace or the end. Spans exclude surrounding whitespace.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const push = (from: number, to: number): void => {
    let start = from;
    let end = to;
    while (start < end && SPACE.test(text[start]!)) start++;
    while (end > start && SPACE.test(text[end - 1]!)) end--;
    if (end > start) out.push({ start, end, text: text.slice(start, end) });
  };
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      push(from, i);
      from = i + 1;
    } else if (TERMINAL.includes(c)) {
      let j = i;
      while (j + 1 < text.length && TERMINAL.includes(text[j + 1]!)) j++;
      while (j + 1 < text.length && CLOSERS.includes(text[j + 1]!)) j++;
      if (j + 1 === text.length || SPACE.test(text[j + 1]!)) {
        push(from, j + 1);
        from = j + 1;
      }
      i = j;
    }
  }
  push(from, text.length);
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A regex source matching a phrase as whole words, case-insensitively, any whitespace between words. */
function phraseSource(phrase: string): string {
  const trimmed = phrase.trim();
  const body = trimmed
    .split(/\s+/u)
    .map((word) => escapeRegExp(word).replace(/'/g, "['\u2019]"))
    .join('\\s+');
  const head = WORD_START.test(trimmed) ? `(?<!${WORD})` : '';
  const tail = WORD_END.test(trimmed) ? `(?!${WORD})` : '';
  return `${head}${body}${tail}`;
}

/** One case-insensitive regex for any of the phrases (longest first), or null for none. */
export function phraseRegExp(phrases: readonly string[]): RegExp | null {
  const usable = [...new Set(phrases.map((p) => p.trim().toLowerCase()).filter((p) => p !== ''))];
  if (usable.length === 0) return null;
  usable.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return new RegExp(usable.map(phraseSource).join('|'), 'iu');
}

/** Words too common to mark a title as touched. */
const STOPWORDS = new Set(
  'about after also been before from have into more most only other over some such than that their them then there these they this very what when which while will with your'.split(
    ' ',
  ),
);

/** A run of letters or digits: a title word, if long enough and no stopword. */
const TITLE_WORD = /[\p{L}\p{N}]+/gu;

const isTitleWord = (word: string): boolean => word.length >= 4 && !STOPWORDS.has(word);

/** The words of a title that mark it as touched: letters or digits, 4+ characters, not a stopword. */
export function titleWords(title: string): string[] {
  const words = title.toLowerCase().match(TITLE_WORD) ?? [];
  return [...new Set(words.filter(isTitleWord))];
}

/**
 * A word as title words are compared: case folded (upper, then lower case, so that `ς`/`σ`/`Σ`,
 * `ſ`/`s` and `ß`/`ss` compare equal).
 */
export function foldWord(word: string): string {
  return word.toUpperCase().toLowerCase();
}

/** The whole words of a text (runs of letters, digits and `_`), folded: what title words match. */
export function textWords(text: string): Set<string> {
  return new Set((text.match(/[\p{L}\p{N}_]+/gu) ?? []).map(foldWord));
}

/**
 * Whether a title has a title word among `words` ({@link textWords}): one set look-up a word,
 * never a pattern compiled per title (compiling a case-insensitive Unicode pattern costs about a
 * millisecond, and a list of objects is searched title by title).
 */
export function titleTouched(title: string, words: ReadonlySet<string>): boolean {
  for (const [word] of title.toLowerCase().matchAll(TITLE_WORD)) {
    if (isTitleWord(word) && words.has(foldWord(word))) return true;
  }
  return false;
}
