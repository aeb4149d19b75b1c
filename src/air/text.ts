import { headOf } from '../core/index.js';
import { AIR_LIMITS } from './thresholds.js';

/**
 * Bidirectional marks, embeddings, overrides and isolates: they carry no words, and in a prompt or a
 * view they reorder the text around the quote, so a quoted claim could make the words after it read
 * otherwise than they are.
 */
const BIDI_CONTROLS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;
/** Runs of control characters, line breaks and white space: each becomes one space. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g;

/**
 * Model text as AIR quotes it in a prompt: one line (control characters and line breaks become
 * spaces, so a quoted claim cannot open a block of its own; bidirectional controls are dropped, so
 * it cannot reorder what follows it), at most `max` characters, cut at a word boundary with an
 * ellipsis.
 */
export function quote(text: string, max: number = AIR_LIMITS.textChars): string {
  // Cut first so a huge input costs no more than a bounded one.
  const head = text.length > max * 4 ? headOf(text, max * 4) : text;
  const line = head.replace(BIDI_CONTROLS, '').replace(LINE_BREAKING, ' ').trim();
  if (line.length <= max) return line;
  const cut = headOf(line, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A context fact's id as AIR keeps and shows it. */
export function factId(id: string): string {
  return quote(id, AIR_LIMITS.idChars);
}

/** A claim quoted inside a sentence: without its final full stop. */
export function clause(text: string, max?: number): string {
  return quote(text, max).replace(/[.!?…\s]+$/u, '');
}

/** The key that makes two phrasings of one claim the same entry. */
export function claimKey(text: string): string {
  return quote(text, AIR_LIMITS.textChars * 2)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const STOPWORDS = new Set(
  (
    'about above after again against also among because been before being below between both could ' +
    'does doing down during each even ever every from further have having here hers herself himself ' +
    'into itself just many more most much must other ours ourselves over same shall should some such ' +
    'than that their theirs them themselves then there these they this those through under until upon ' +
    'very were what when where which while whom whose will with within without would your yours ' +
    'yourself yourselves uses used using make makes made like only well also still into onto'
  ).split(' '),
);

/**
 * The concept words of a text: lower-cased words of 4–64 letters or digits that are not function
 * words or plain numbers, in order of appearance.
 */
export function conceptWords(text: string): string[] {
  const words = quote(text, AIR_LIMITS.textChars * 4)
    .toLowerCase()
    .match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu);
  if (words === null) return [];
  return words.filter(
    (w) => w.length >= 4 && w.length <= 64 && !/^[\d-]+$/.test(w) && !STOPWORDS.has(w),
  );
}

/** Keeps the last `max` of `items` (the newest, when they are oldest first). */
export function newest<T>(items: readonly T[], max: number): T[] {
  return items.length > max ? items.slice(items.length - max) : [...items];
}

/** Distinct by key, keeping the LAST occurrence's position (a repeated entry becomes the newest). */
export function distinctLast<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const k = key(items[i]!);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(items[i]!);
  }
  return out.reverse();
}
