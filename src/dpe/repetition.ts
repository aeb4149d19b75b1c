import { round } from './explain.js';
import { DPE_LIMITS, NGRAM } from './limits.js';
import { normaliseStatement } from './normalise.js';
import type { Sentence } from './segment.js';
import { tokenize } from './tokens.js';
import type { RepetitionSignal } from './types.js';

/**
 * Repetition (README "Repetition"). Words are the engine's tokens lower-cased (NFKC); 6-grams are
 * taken inside each sentence (not across sentence ends), code excluded. A 6-gram *position* is
 * repeated when the same 6-gram occurred at an earlier position of this window or anywhere in an
 * earlier window; `ratio` = repeated positions / positions. A sentence (not code, at least three
 * words) is a duplicate when its normal form occurred earlier in this window or in an earlier one;
 * `duplicate_ratio` = duplicates / such sentences.
 */
export interface History {
  readonly ngrams: ReadonlySet<string>;
  readonly sentences: ReadonlySet<string>;
}

function wordsOf(sentence: string): string[] {
  return tokenize(sentence).map((t) => t.lower);
}

function ngramsOf(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + NGRAM <= words.length; i++) out.push(words.slice(i, i + NGRAM).join(' '));
  return out;
}

const counted = (s: Sentence): boolean => s.kind !== 'code';

/** What earlier windows said, read once. */
export function historyOf(earlier: readonly (readonly Sentence[])[]): History {
  const ngrams = new Set<string>();
  const sentences = new Set<string>();
  for (const window of earlier) {
    for (const s of window) {
      if (!counted(s)) continue;
      const words = wordsOf(s.text);
      for (const g of ngramsOf(words)) ngrams.add(g);
      if (words.length >= 3) sentences.add(normaliseStatement(s.text));
    }
  }
  return { ngrams, sentences };
}

export function repetitionOf(sentences: readonly Sentence[], history: History): RepetitionSignal {
  const seen = new Map<string, { count: number; earlier: boolean; first: number }>();
  let positions = 0;
  let repeated = 0;
  const seenSentences = new Set<string>();
  const duplicates: { sentence: string; earlier: boolean }[] = [];
  let considered = 0;
  let duplicateCount = 0;
  for (const s of sentences) {
    if (!counted(s)) continue;
    const words = wordsOf(s.text);
    for (const g of ngramsOf(words)) {
      const entry = seen.get(g);
      const earlier = history.ngrams.has(g);
      if (entry) entry.count++;
      else seen.set(g, { count: 1, earlier, first: positions });
      if (entry || earlier) repeated++;
      positions++;
    }
    if (words.length < 3 || s.text.length > DPE_LIMITS.maxSentenceChars) continue;
    considered++;
    const key = normaliseStatement(s.text);
    const earlier = !seenSentences.has(key) && history.sentences.has(key);
    if (seenSentences.has(key) || earlier) {
      duplicateCount++;
      if (duplicates.length < DPE_LIMITS.maxListedDuplicates) {
        duplicates.push({ sentence: s.text, earlier });
      }
    }
    seenSentences.add(key);
  }
  const ngrams = [...seen]
    .filter(([, e]) => e.count > 1 || e.earlier)
    .sort(([, a], [, b]) => b.count - a.count || a.first - b.first)
    .slice(0, DPE_LIMITS.maxListedNgrams)
    .map(([ngram, e]) => ({ ngram, count: e.count, earlier: e.earlier }));
  return {
    ratio: positions === 0 ? 0 : round(repeated / positions),
    ngrams,
    duplicate_sentences: duplicates,
    duplicate_ratio: considered === 0 ? 0 : round(duplicateCount / considered),
  };
}
