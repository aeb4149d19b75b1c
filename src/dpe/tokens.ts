import { STOP_WORDS } from './normalise.js';

/**
 * The words the engine compares, one left-to-right scan (no backtracking patterns on the text):
 * letters and digits, keeping inner `.` and `,` between digits (3.5, 1,000), inner `.` between word
 * characters (v3.5.1, example.com), inner apostrophes (doesn't) and hyphens (key-value), and a minus
 * sign (`-` or `−`) that opens a number (-5); `%` and `×` are tokens of their own. Each token keeps its original spelling (for entities) and its position
 * in the sentence.
 */
export interface Token {
  readonly raw: string;
  readonly lower: string;
  /** 0 for the first token of its sentence. */
  readonly at: number;
}

/** Longest token kept (a longer run is cut): bounds every per-token pattern below. */
const MAX_TOKEN = 64;

const WORD = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

export function tokenize(text: string): Token[] {
  const s = text.normalize('NFKC');
  const out: Token[] = [];
  let word = '';
  const end = (): void => {
    if (word !== '') out.push({ raw: word, lower: word.toLowerCase(), at: out.length });
    word = '';
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (isWord(c)) {
      if (word.length < MAX_TOKEN) word += c;
      continue;
    }
    // A minus sign before a number starts it (-5, −40): a sign flip is a different value.
    if (word === '' && (c === '-' || c === '\u2212') && isDigit(s[i + 1]) && !isWord(s[i - 1])) {
      word = '-';
      continue;
    }
    if (word !== '') {
      const next = s[i + 1];
      const prev = s[i - 1];
      if (c === ',' && isDigit(prev) && isDigit(next) && isDigit(s[i + 2]) && isDigit(s[i + 3])) {
        word += c;
        continue;
      }
      if ((c === '.' || c === '-' || c === "'" || c === '’') && isWord(next)) {
        word += c === '’' ? "'" : c;
        continue;
      }
    }
    end();
    if (c === '%' || c === '×') out.push({ raw: c, lower: c, at: out.length });
  }
  end();
  return out;
}

/** Words that never carry a claim's subject (the normaliser's stop words and a few more). */
const MORE_STOP =
  'per via yet such both either own same other most some many much well still out up down off once here being i.e e.g etc'.split(
    ' ',
  );
export const ANALYSIS_STOP_WORDS: ReadonlySet<string> = new Set([...STOP_WORDS, ...MORE_STOP]);

/** Words that make a sentence negative ("is not", "does not support", "never", "without"). */
const NEGATIONS = new Set(
  "not no never none nor neither without cannot can't won't nothing nobody nowhere".split(' '),
);

/** Whether the token negates: a negation word or a contraction ending in n't. */
export function negates(tokens: readonly Token[], i: number): boolean {
  const w = tokens[i]!.lower;
  if (w === 'not' && tokens[i + 1]?.lower === 'only') return false;
  return NEGATIONS.has(w) || w.endsWith("n't");
}

/**
 * A light suffix stemmer so that word forms meet: "stores", "stored", "storing" and "store" all
 * become "stor"; "latencies" and "latency" become "latency"; "replicas" becomes "replica". Short
 * words (≤ 3 letters) and words with digits are left as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:ss|sh|ch|x|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** running → runn → run; but "fall" stays. */
function undouble(w: string): string {
  const n = w.length;
  if (n >= 3 && w[n - 1] === w[n - 2] && !'lsz'.includes(w[n - 1]!)) return w.slice(0, -1);
  return w;
}

/**
 * Small groups of words that mean the same for matching a claim to a fact (by stem, the first word
 * of each group standing for the others). Deliberately few: every group is a chance to match claims
 * that differ, and the corpus reports what paraphrase this does and does not reach.
 */
const SYNONYM_GROUPS = [
  'use utilize utilise employ rely',
  'store keep persist save hold',
  'fast quick rapid',
  'large big',
  'small little',
  'start begin launch',
  'stop halt terminate',
  'require need',
  'allow permit enable',
  'remove delete drop',
  'fail crash',
  'run execute',
  'show display',
  'reduce decrease',
  'increase raise grow',
  'replicate copy',
  'encrypt cipher',
  'database db',
  'default standard',
];
const SYNONYMS = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
  const [head, ...rest] = group.split(' ').map(stem);
  for (const w of rest) SYNONYMS.set(w!, head!);
}

/** The form a content word is matched in: its stem, or the head of its synonym group. */
export function keyForm(lower: string): string {
  const s = stem(lower);
  return SYNONYMS.get(s) ?? s;
}
