import { compareClaim, type Verdict } from './compare.js';
import { quote, round } from './explain.js';
import type { FactIndex, IndexedFact } from './facts.js';
import type { Features } from './features.js';
import type { ClaimSignal, ContradictionSignal } from './types.js';

/**
 * Attribution of one claim (README "Attribution"):
 * 1. The claim's key words are looked up in the fact index; a fact's *score* is the share of the
 *    claim's key words it has. A fact *matches on subject* when its score is ≥
 *    {@link MATCH_THRESHOLD} and it shares ≥ {@link MIN_SHARED} key words (or all of them, when the
 *    claim has fewer). Candidates are taken best score first, then more shared words, then context
 *    order.
 * 2. A candidate that agrees (compare.ts) grounds the claim: CONTEXT_GROUNDED, confidence = score.
 * 3. Otherwise the first candidate that contradicts makes a *distortion* (PARAMETRIC: the claim
 *    comes from the model, against the context), confidence = its score. When the claim names
 *    entities and some candidates name one of them too, only those (the claim's own subject) are
 *    weighed here and in 4.
 * 4. Otherwise every candidate is silent on a value the claim states: a *fabrication* (a specific
 *    value about a subject the context covers, which no fact about it gives), UNVERIFIABLE,
 *    confidence = the best score.
 * 5. No candidate: UNVERIFIABLE when the claim is specific (a quantity or an entity; a comparison
 *    is specific through what it compares), else PARAMETRIC; confidence = 1 − the best score of any fact (how clearly nothing supports it).
 */
export const MATCH_THRESHOLD = 0.5;
export const MIN_SHARED = 2;

export interface Attributed {
  readonly claim: ClaimSignal;
  readonly contradiction: ContradictionSignal | null;
}

interface Candidate {
  readonly fact: IndexedFact;
  readonly shared: number;
  readonly score: number;
}

/** What kind of claim it is, for reasoning scaffolds (CRP-018 §4.1). */
export function claimType(f: Features): string {
  if (f.comparison !== null) return 'comparison';
  if (f.quantities.some((q) => q.dim !== 'count' && q.dim !== 'version')) return 'statistic';
  if (f.quantities.some((q) => q.dim === 'version')) return 'version';
  if (f.quantities.length > 0) return 'quantity';
  if (f.entities.length > 0) return 'entity';
  return 'general';
}

function describeFact(f: IndexedFact): string {
  return `fact ${f.fact.id} (${f.fact.source}) ${quote(f.fact.statement)}`;
}

function sharedWords(claim: Features, fact: IndexedFact): string {
  return [...claim.keys]
    .filter((k) => fact.features.keys.has(k))
    .map((k) => claim.keyText.get(k) ?? k)
    .join(', ');
}

/**
 * Whether the fact speaks of another subject than the claim: both name theirs (`Features.subject`)
 * and no name is in both. "Section Constraints is drafted" says nothing against "section Context is
 * drafted"; it is about another section.
 */
function sibling(claim: Features, fact: Features): boolean {
  if (claim.subject.size === 0 || fact.subject.size === 0) return false;
  for (const e of claim.subject) if (fact.subject.has(e)) return false;
  return true;
}

export function attributeClaim(
  index: FactIndex,
  claimIndex: number,
  text: string,
  claim: Features,
): Attributed {
  const counts = new Map<number, number>();
  for (const key of claim.keys) {
    for (const order of index.byKey.get(key) ?? []) counts.set(order, (counts.get(order) ?? 0) + 1);
  }
  const n = claim.keys.size;
  const need = Math.min(MIN_SHARED, n);
  const candidates: Candidate[] = [];
  let best: Candidate | null = null;
  for (const [order, shared] of counts) {
    const c = { fact: index.facts[order]!, shared, score: shared / n };
    if (
      best === null ||
      c.score > best.score ||
      (c.score === best.score && c.fact.order < best.fact.order)
    ) {
      best = c;
    }
    if (n > 0 && shared >= need && c.score >= MATCH_THRESHOLD && !sibling(claim, c.fact.features)) {
      candidates.push(c);
    }
  }
  candidates.sort(
    (a, b) => b.score - a.score || b.shared - a.shared || a.fact.order - b.fact.order,
  );
  const type = claimType(claim);
  const base = { index: claimIndex, text, claim_type: type };
  const verdicts: [Candidate, Verdict][] = candidates.map((c) => [
    c,
    compareClaim(claim, c.fact.features),
  ]);

  const agreeing = verdicts.find(([, v]) => v.kind === 'agree');
  if (agreeing) {
    const [c] = agreeing;
    return {
      claim: {
        ...base,
        attribution: 'CONTEXT_GROUNDED',
        confidence: round(c.score),
        fact_id: c.fact.fact.id,
        explanation: `supported by ${describeFact(c.fact)}: shares ${c.shared} of ${n} key words (${sharedWords(claim, c.fact)}) and contradicts it in nothing`,
      },
      contradiction: null,
    };
  }

  // A claim that names its subject is judged against the facts about that subject when there are
  // any: a fact about a sibling ("Atlas … 32 GB") must not turn a fabrication about this one
  // ("Hydra … 48 GB") into a distortion of the sibling's fact.
  const own =
    claim.entities.length > 0
      ? verdicts.filter(([c]) => c.fact.features.entities.some((e) => claim.entities.includes(e)))
      : [];
  const pool = own.length > 0 ? own : verdicts;
  const contradicting = pool.find(([, v]) => v.kind === 'contradict');
  if (contradicting) {
    const [c, v] = contradicting as [Candidate, Extract<Verdict, { kind: 'contradict' }>];
    const explanation = `matches ${describeFact(c.fact)} on ${c.shared} of ${n} key words (${sharedWords(claim, c.fact)}) but differs in ${v.contradiction}: the claim says ${quote(v.claimed)} where the fact says ${quote(v.expected)}`;
    return {
      claim: {
        ...base,
        attribution: 'PARAMETRIC',
        confidence: round(c.score),
        fact_id: c.fact.fact.id,
        explanation: `distortion: ${explanation}`,
      },
      contradiction: {
        kind: 'distortion',
        contradiction: v.contradiction,
        claim_index: claimIndex,
        claim: text,
        fact_id: c.fact.fact.id,
        fact: c.fact.fact.statement,
        claimed: v.claimed,
        expected: v.expected,
        explanation,
      },
    };
  }

  if (pool.length > 0) {
    const [c, v] = pool[0] as [Candidate, Extract<Verdict, { kind: 'silent' }>];
    const explanation = `states ${quote(v.claimed)} about what ${describeFact(c.fact)} covers (${c.shared} of ${n} key words: ${sharedWords(claim, c.fact)}), and no fact about it gives that ${v.contradiction === 'number' ? 'value' : 'name'}`;
    return {
      claim: {
        ...base,
        attribution: 'UNVERIFIABLE',
        confidence: round(c.score),
        fact_id: c.fact.fact.id,
        explanation: `fabrication: ${explanation}`,
      },
      contradiction: {
        kind: 'fabrication',
        contradiction: v.contradiction,
        claim_index: claimIndex,
        claim: text,
        fact_id: c.fact.fact.id,
        fact: c.fact.fact.statement,
        claimed: v.claimed,
        expected: null,
        explanation,
      },
    };
  }

  // A comparison alone ("easier to review than large ones") is general; one that names a thing
  // or a number is specific through those.
  const specific = claim.quantities.length > 0 || claim.entities.length > 0;
  const nearest =
    best === null
      ? 'no context fact shares a key word with it'
      : `the nearest, ${describeFact(best.fact)}, shares ${best.shared} of ${n} key words (${sharedWords(claim, best.fact)})`;
  const what = specific ? `specific (${type}: ${specifics(claim)})` : 'general';
  return {
    claim: {
      ...base,
      attribution: specific ? 'UNVERIFIABLE' : 'PARAMETRIC',
      confidence: round(1 - (best?.score ?? 0)),
      fact_id: null,
      explanation: `${what} and no context fact supports it: ${nearest}`,
    },
    contradiction: null,
  };
}

/** The specific parts of a claim, for its explanation. */
function specifics(f: Features): string {
  const parts = [
    ...f.quantities.map((q) => quote(q.text)),
    ...f.entities.map((e) => quote(f.entityText.get(e) ?? e)),
  ];
  if (f.comparison !== null && parts.length === 0) parts.push(quote(f.comparison));
  return parts.slice(0, 4).join(', ');
}
