import type { Features } from './features.js';
import { type Quantity, sameValue } from './quantities.js';
import type { Contradiction } from './types.js';

/**
 * How one claim stands against one fact it matches on subject:
 * - `agree`: same polarity, each of the claim's quantities equals one of the fact's in the same
 *   dimension, each of its entities is among the fact's;
 * - `contradict`: in this order — polarity differs (`negation`); a claim quantity has no equal in
 *   the fact but the fact has a quantity of the same dimension (`unit` when their units differ,
 *   else `number`; a count is paired with, and must equal, the fact's count of the same noun when
 *   there is one); the
 *   claim names an entity the fact does not while the fact names one the claim does not — or, one
 *   for one, the claim's one extra name stands where the fact has one key word the claim lacks
 *   (`entity`: "etcd" is not spelled as a name, but ZooKeeper replaced it);
 * - `silent`: no contradiction, but the claim states a quantity of a dimension the fact has none
 *   of, or an entity where the fact names none the claim lacks: the fact does not say.
 */
export type Verdict =
  | { readonly kind: 'agree' }
  | {
      readonly kind: 'contradict';
      readonly contradiction: Contradiction;
      readonly claimed: string;
      readonly expected: string;
    }
  | {
      readonly kind: 'silent';
      readonly contradiction: 'number' | 'entity';
      readonly claimed: string;
    };

function pairFor(q: Quantity, same: readonly Quantity[]): Quantity {
  if (q.noun !== null) {
    const byNoun = same.find((p) => p.noun === q.noun);
    if (byNoun) return byNoun;
  }
  return same[0]!;
}

export function compareClaim(claim: Features, fact: Features): Verdict {
  if (claim.negated !== fact.negated) {
    return {
      kind: 'contradict',
      contradiction: 'negation',
      claimed: claim.negated ? 'negative' : 'affirmative',
      expected: fact.negated ? 'negative' : 'affirmative',
    };
  }
  let silent: Verdict | null = null;
  for (const q of claim.quantities) {
    const same = fact.quantities.filter((p) => p.dim === q.dim);
    // A count of a noun the fact counts too is held to that count: "3 nodes and 5 replicas" does
    // not agree with "5 nodes and 3 replicas" because each number appears somewhere.
    const ofNoun = q.noun === null ? [] : same.filter((p) => p.noun === q.noun);
    if ((ofNoun.length > 0 ? ofNoun : same).some((p) => sameValue(p, q))) continue;
    if (same.length === 0) {
      silent ??= { kind: 'silent', contradiction: 'number', claimed: q.text };
      continue;
    }
    const p = pairFor(q, same);
    return {
      kind: 'contradict',
      contradiction: q.unit !== p.unit ? 'unit' : 'number',
      claimed: q.text,
      expected: p.text,
    };
  }
  const factEntities = new Set(fact.entities);
  const claimEntities = new Set(claim.entities);
  const extra = claim.entities.filter((e) => !factEntities.has(e));
  if (extra.length > 0) {
    const missing = fact.entities.filter((e) => !claimEntities.has(e));
    if (missing.length > 0) {
      return {
        kind: 'contradict',
        contradiction: 'entity',
        claimed: claim.entityText.get(extra[0]!) ?? extra[0]!,
        expected: fact.entityText.get(missing[0]!) ?? missing[0]!,
      };
    }
    // The fact may name the thing in a word its spelling does not mark (etcd, a sentence-initial
    // name): one key word of the fact the claim lacks, where the claim has one name instead.
    const lacking = [...fact.keys].filter((k) => !claim.keys.has(k));
    if (lacking.length === 1 && extra.length === 1) {
      const replaced = lacking[0]!;
      return {
        kind: 'contradict',
        contradiction: 'entity',
        claimed: claim.entityText.get(extra[0]!) ?? extra[0]!,
        expected: fact.keyText.get(replaced) ?? replaced,
      };
    }
    silent ??= {
      kind: 'silent',
      contradiction: 'entity',
      claimed: claim.entityText.get(extra[0]!) ?? extra[0]!,
    };
  }
  return silent ?? { kind: 'agree' };
}
