// @ts-check
/**
 * The three baseline context strategies (no model is available, so each is the deterministic
 * stand-in for its kind): the full transcript of the main project, a rolling extractive summary
 * under a token budget, and BM25 retrieval over a store holding both projects' history. Each returns
 * the context text and its messages ("units"), which the scorer reads line by line.
 */
import { countTokens } from 'canonry/core';

/**
 * One message as a context shows it.
 * @typedef {{ id: string, project: string, actor: string, speaker: string, text: string }} Unit
 * @typedef {{ text: string, units: Unit[] }} Context
 */

/** The archived messages of a scenario (every event carries the text it archived). @param {import('./replay.js').ScenarioEvent[]} events @returns {Unit[]} */
export function archive(events) {
  return events.map((e) => ({
    id: e.id,
    project: e.project,
    actor: e.actor,
    speaker: e.speaker,
    text: e.text,
  }));
}

/** `alice (user): text` @param {Unit} u */
export const render = (u) => `${u.actor} (${u.speaker}): ${u.text}`;

/** (a) Every message of the main project, in order. @param {Unit[]} units @param {string} project @returns {Context} */
export function fullTranscript(units, project) {
  const mine = units.filter((u) => u.project === project);
  return { text: mine.map(render).join('\n'), units: mine };
}

/** The first sentence of a message (up to the first `.`, `!` or `?` before a space, or the first line). @param {string} text */
export function firstSentence(text) {
  const line = text.split('\n')[0] ?? '';
  const m = /^.*?[.!?](?=\s|$)/.exec(line);
  return (m ? m[0] : line).trim();
}

export const SUMMARY_BUDGET = 1_000;
const SUMMARY_HEAD = '# Summary of the earlier conversation (first sentence of each message)';
const RECENT_HEAD = '# Recent messages (verbatim)';

/**
 * (b) A rolling summary under a fixed token budget: the most recent messages verbatim, older ones
 * compressed to their first sentence (oldest first) until the context fits; when every message but
 * the last is compressed and it still does not fit, the oldest compressed lines are dropped.
 * @param {Unit[]} units @param {string} project @param {number} [budget] @returns {Context}
 */
export function rollingSummary(units, project, budget = SUMMARY_BUDGET) {
  const mine = units.filter((u) => u.project === project);
  const short = mine.map((u) => ({ ...u, text: firstSentence(u.text) }));
  const full = mine.map((u) => countTokens(render(u)) + 1);
  const brief = short.map((u) => countTokens(`- ${render(u)}`) + 1);
  const heads = countTokens(SUMMARY_HEAD) + countTokens(RECENT_HEAD) + 2;
  let compressed = 0; // messages [dropped, compressed) are summarised
  let dropped = 0;
  let total = heads + full.reduce((a, b) => a + b, 0);
  const build = () => {
    const older = short.slice(dropped, compressed);
    const recent = mine.slice(compressed);
    const text = [
      ...(older.length > 0 ? [SUMMARY_HEAD, ...older.map((u) => `- ${render(u)}`)] : []),
      RECENT_HEAD,
      ...recent.map(render),
    ].join('\n');
    return { text, units: [...older, ...recent] };
  };
  const shrink = () => {
    if (compressed < mine.length - 1) {
      total += (brief[compressed] ?? 0) - (full[compressed] ?? 0);
      compressed++;
    } else if (dropped < compressed) {
      total -= brief[dropped] ?? 0;
      dropped++;
    } else return false;
    return true;
  };
  while (total > budget && shrink()) {
    // estimate by line; checked exactly below
  }
  let context = build();
  while (countTokens(context.text) > budget && shrink()) context = build();
  return context;
}

/** Lowercased words and numbers. @param {string} text */
export const words = (text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Okapi BM25 (k1 = 1.2, b = 0.75) over a list of documents. */
export class Bm25 {
  /** @param {string[]} docs */
  constructor(docs, k1 = 1.2, b = 0.75) {
    this.k1 = k1;
    this.b = b;
    this.tf = docs.map((d) => {
      /** @type {Map<string, number>} */
      const counts = new Map();
      for (const w of words(d)) counts.set(w, (counts.get(w) ?? 0) + 1);
      return counts;
    });
    this.len = docs.map((d) => words(d).length);
    this.avg = this.len.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
    /** @type {Map<string, number>} */
    this.df = new Map();
    for (const counts of this.tf)
      for (const w of counts.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }

  /** Indexes of the top `k` documents for `query`, best first (ties: earlier first). @param {string} query @param {number} k */
  search(query, k) {
    const n = this.tf.length;
    const terms = [...new Set(words(query))];
    const idf = terms.map((t) => {
      const df = this.df.get(t) ?? 0;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    const scores = this.tf.map((counts, i) => {
      let s = 0;
      terms.forEach((t, j) => {
        const f = counts.get(t) ?? 0;
        if (f > 0) {
          const norm = this.k1 * (1 - this.b + (this.b * (this.len[i] ?? 0)) / this.avg);
          s += (idf[j] ?? 0) * ((f * (this.k1 + 1)) / (f + norm));
        }
      });
      return s;
    });
    return scores
      .map((score, i) => ({ score, i }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, k)
      .map((x) => x.i);
  }
}

export const RETRIEVAL_K = 8;

/**
 * (c) Retrieval over history: BM25 top-k over the index of every archived message of both projects
 * (one shared memory store, as vector stores commonly are), the hits shown in chronological order.
 * With `project`, the index is filtered to that project first (a sensitivity variant).
 * @param {{ units: Unit[], index: Bm25 }} store @param {string} question @param {number} [k]
 * @returns {Context}
 */
export function retrieval(store, question, k = RETRIEVAL_K) {
  const hits = store.index.search(question, k).sort((a, b) => a - b);
  const units = hits.map((i) => /** @type {Unit} */ (store.units[i]));
  return { text: units.map(render).join('\n'), units };
}

/** A retrieval store over some messages. @param {Unit[]} units */
export function retrievalStore(units) {
  return { units, index: new Bm25(units.map((u) => u.text)) };
}
