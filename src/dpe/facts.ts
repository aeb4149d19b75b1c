import { entitiesBySpelling, type Features, featuresOf } from './features.js';
import type { ContextFact } from './types.js';

/** A context fact read once: its features, and the index that finds it by key word. */
export interface IndexedFact {
  readonly fact: ContextFact;
  readonly order: number;
  readonly features: Features;
}

export interface FactIndex {
  readonly facts: readonly IndexedFact[];
  /** Key word → the facts (by order) that have it. */
  readonly byKey: ReadonlyMap<string, readonly number[]>;
  /** Every entity the context names (lower case): the lexicon claims are read with. */
  readonly lexicon: ReadonlySet<string>;
}

/**
 * Reads the context once: the lexicon of entities first (so a fact's own sentence-initial entity
 * is one when another fact spells it), then each fact's features, then an inverted index from key
 * word to facts. Matching a claim then costs the length of the posting lists of its key words, not
 * a pass over every fact.
 */
export function indexFacts(
  context: readonly ContextFact[],
  extraLexicon: Iterable<string>,
): FactIndex {
  const lexicon = new Set<string>(extraLexicon);
  for (const f of context) for (const e of entitiesBySpelling(f.statement)) lexicon.add(e);
  const facts: IndexedFact[] = [];
  const byKey = new Map<string, number[]>();
  for (let order = 0; order < context.length; order++) {
    const fact = context[order]!;
    const features = featuresOf(fact.statement, lexicon);
    facts.push({ fact, order, features });
    for (const key of features.keys) {
      const list = byKey.get(key);
      if (list) list.push(order);
      else byKey.set(key, [order]);
    }
  }
  return { facts, byKey, lexicon };
}
