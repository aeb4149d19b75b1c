import type { BlockKind } from './blocks.js';

/**
 * What a sentence is, by simple, documented surface rules (no model):
 * - `code`: nothing but inline code and punctuation once inline code is removed;
 * - `question`: ends with `?` (an open-question candidate);
 * - `heading`: a heading block, a line ending with `:`, or a paragraph of one short line (at most
 *   {@link HEADING_WORDS} words) without end punctuation;
 * - `imperative`: starts with a bare verb of instruction (Use, Run, Install, Note, Let's, Don't…),
 *   with "please", or ends with `!` ("Note that …" is a statement);
 * - `hedged`: contains a hedge (might, perhaps, probably, I think…): not asserted, not a claim;
 * - `fragment`: fewer than {@link MIN_CLAIM_WORDS} words, or no letter;
 * - `claim`: anything else — a declarative sentence.
 */
export type SentenceKind =
  | 'claim'
  | 'question'
  | 'heading'
  | 'imperative'
  | 'hedged'
  | 'fragment'
  | 'code';

export const MIN_CLAIM_WORDS = 3;
export const HEADING_WORDS = 6;

const IMPERATIVES = new Set(
  (
    "use run install add remove make set check ensure see note let lets let’s do don’t don't try " +
    'create update delete configure consider click open go please avoid write read call build ' +
    'deploy restart enable disable start stop follow keep replace copy move select choose pick ' +
    'apply define fix verify test review refer return remember make sure never always type press ' +
    'navigate download upload edit insert save change rename specify provide pass import export ' +
    'include exclude wait'
  ).split(' '),
);

/** A verb of instruction with one of these next or after next is a noun ("Test coverage is 80%"). */
const AS_SUBJECT = new Set(
  'is are was were has have had will would can could should must remains stays takes uses runs'.split(
    ' ',
  ),
);

const HEDGES = new Set(
  'might perhaps probably possibly maybe presumably seemingly seems seem appears unclear unsure guess'.split(
    ' ',
  ),
);
const HEDGE_PAIRS = ['i think', 'we think', 'i believe', 'we believe', 'not sure', 'could be'];

/** The words of a sentence, lower-cased, stripped of surrounding punctuation. */
export function wordsOf(sentence: string): string[] {
  const out: string[] = [];
  for (const raw of sentence.split(' ')) {
    let start = 0;
    let end = raw.length;
    while (start < end && !/[\p{L}\p{N}]/u.test(raw[start]!)) start++;
    while (end > start && !/[\p{L}\p{N}]/u.test(raw[end - 1]!)) end--;
    if (end > start) out.push(raw.slice(start, end).toLowerCase());
  }
  return out;
}

/** The sentence without its inline code spans (for the "is it only code?" test). */
function withoutCode(sentence: string): string {
  let out = '';
  let inCode = false;
  for (const c of sentence) {
    if (c === '`') inCode = !inCode;
    else if (!inCode) out += c;
  }
  return out;
}

export function classifySentence(
  sentence: string,
  block: { readonly kind: BlockKind; readonly sentences: number },
): SentenceKind {
  const bare = withoutCode(sentence).trim();
  if (!/[\p{L}]/u.test(bare)) return sentence.includes('`') ? 'code' : 'fragment';
  const last = sentence[sentence.length - 1];
  if (last === '?') return 'question';
  if (block.kind === 'heading' || last === ':') return 'heading';
  const words = wordsOf(sentence);
  const ended = last === '.' || last === '!' || last === '…' || last === '"' || last === ')';
  if (
    block.kind === 'paragraph' &&
    block.sentences === 1 &&
    !ended &&
    words.length <= HEADING_WORDS
  ) {
    return 'heading';
  }
  if (
    last === '!' ||
    (IMPERATIVES.has(words[0] ?? '') &&
      !(words[0] === 'note' && words[1] === 'that') &&
      !AS_SUBJECT.has(words[1] ?? '') &&
      !AS_SUBJECT.has(words[2] ?? ''))
  ) {
    return 'imperative';
  }
  if (words.length < MIN_CLAIM_WORDS) return 'fragment';
  if (words.some((w) => HEDGES.has(w))) return 'hedged';
  const lower = ` ${words.join(' ')} `;
  if (HEDGE_PAIRS.some((p) => lower.includes(` ${p} `))) return 'hedged';
  return 'claim';
}
