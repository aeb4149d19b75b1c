/**
 * Sentence segmentation of one block, by a single left-to-right scan (no regular expressions, so no
 * backtracking). A sentence ends at a run of `.`, `!`, `?` or `…` (closing quotes and brackets
 * included) that is followed by white space or the end of the block, except:
 * - inside inline code (`…` or ``…``): code is never split;
 * - a `.` directly followed by a non-space is not an end (3.5, v3.5.1, e.g.x, example.com);
 * - a `.` after a known abbreviation (Dr., vs., approx., et al.; but not `ms` after a number:
 *   "200 ms." ends), after dotted letters (e.g., i.e.,
 *   U.S., a.m.), after No./p./Fig. before a number, or after etc. before a lower-case word, is not
 *   an end. A lower-case word alone does not join sentences: technical sentences often start with
 *   one (etcd, npm, iOS).
 */

/** Abbreviations that never end a sentence (lower case, without their final dot). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'vs',
  'cf',
  'approx',
  'ca',
  'al',
  'resp',
  'incl',
  'esp',
]);

/** Abbreviations that do not end a sentence when a number follows (No. 5, p. 12, Fig. 3). */
const NUMBERED = new Set(['no', 'nos', 'p', 'pp', 'fig', 'figs', 'vol', 'ch', 'sec', 'eq', 'art']);

/** Longest word looked back at for an abbreviation. */
const MAX_WORD = 24;

const isSpace = (c: string | undefined): boolean =>
  c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\u00a0';
const isTerminal = (c: string | undefined): boolean =>
  c === '.' || c === '!' || c === '?' || c === '…';
const isCloser = (c: string | undefined): boolean =>
  c === '"' || c === "'" || c === ')' || c === ']' || c === '”' || c === '’' || c === '*';
const isLower = (c: string | undefined): boolean =>
  c !== undefined && c.toLowerCase() === c && c.toUpperCase() !== c;
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** e.g, i.e, u.s, a.m: single letters joined by dots. */
function dottedLetters(word: string): boolean {
  if (word.length < 3) return false;
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (i % 2 === 1 ? c !== '.' : c.toLowerCase() === c.toUpperCase()) return false;
  }
  return word.length % 2 === 1;
}

/** The word ending just before `dot` (back to white space or an opening bracket), lower-cased. */
function wordBefore(text: string, dot: number): string {
  let start = dot;
  while (start > 0 && dot - start < MAX_WORD && !isSpace(text[start - 1])) start--;
  let word = text.slice(start, dot).toLowerCase();
  while (word.length > 0 && '("\'[“‘'.includes(word[0]!)) word = word.slice(1);
  return word;
}

/** Whether the single `.` at `dot` is an abbreviation's, given what follows the space. */
function abbreviated(text: string, dot: number, next: string | undefined): boolean {
  const word = wordBefore(text, dot);
  // "200 ms." is milliseconds ending a sentence, not the title Ms.
  if (word === 'ms' && isDigit(text[dot - 4]) && isSpace(text[dot - 3])) return false;
  if (ABBREVIATIONS.has(word) || dottedLetters(word)) return true;
  if (word === 'etc') return isLower(next);
  return isDigit(next) && NUMBERED.has(word);
}

/**
 * Inline code spans as [start, end) pairs: a run of one or two backticks up to the next run of the
 * same length. A run with no partner is text; runs of three or more are text too (fences were
 * removed by the block pass), which keeps the partner search linear.
 */
function codeSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const unmatched = new Set<number>();
  let i = text.indexOf('`');
  while (i !== -1) {
    let run = 1;
    while (text[i + run] === '`') run++;
    if (run <= 2 && !unmatched.has(run)) {
      let close = text.indexOf('`'.repeat(run), i + run);
      while (close !== -1 && (text[close + run] === '`' || text[close - 1] === '`')) {
        let skip = close;
        while (text[skip] === '`') skip++;
        close = text.indexOf('`'.repeat(run), skip);
      }
      if (close === -1) unmatched.add(run);
      else {
        spans.push([i, close + run]);
        i = text.indexOf('`', close + run);
        continue;
      }
    }
    i = text.indexOf('`', i + run);
  }
  return spans;
}

/** The sentences of one block, trimmed, white space collapsed, in order. */
export function sentencesOf(text: string): string[] {
  const spans = codeSpans(text);
  const out: string[] = [];
  let from = 0;
  let span = 0;
  for (let i = 0; i < text.length; i++) {
    while (span < spans.length && spans[span]![1] <= i) span++;
    if (span < spans.length && spans[span]![0] <= i) {
      i = spans[span]![1] - 1;
      continue;
    }
    if (!isTerminal(text[i])) continue;
    let end = i;
    while (isTerminal(text[end + 1])) end++;
    const single = end === i && text[i] === '.';
    while (isCloser(text[end + 1])) end++;
    const after = end + 1;
    if (after < text.length && !isSpace(text[after])) {
      i = end;
      continue;
    }
    let next = after;
    while (next < text.length && isSpace(text[next])) next++;
    if (single && next < text.length && abbreviated(text, i, text[next])) {
      i = end;
      continue;
    }
    push(out, text.slice(from, after));
    from = after;
    i = end;
  }
  push(out, text.slice(from));
  return out;
}

function push(out: string[], sentence: string): void {
  const collapsed = collapse(sentence);
  if (collapsed !== '') out.push(collapsed);
}

/** Trims and collapses runs of white space to one space (one pass). */
export function collapse(text: string): string {
  let out = '';
  let space = false;
  for (const c of text) {
    if (isSpace(c)) space = out !== '';
    else {
      if (space) out += ' ';
      out += c;
      space = false;
    }
  }
  return out;
}
