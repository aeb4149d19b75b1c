import { attributeClaim } from './attribute.js';
import { indexFacts } from './facts.js';
import { entitiesBySpelling, featuresOf } from './features.js';
import { readInput } from './input.js';
import { DPE_LIMITS } from './limits.js';
import type { ContextFact } from './types.js';

/**
 * Which of `claims` the context grounds: each read as one claim sentence and attributed as
 * {@link analyseWindow} attributes a window's claims (README "Attribution") — true when a fact
 * agrees with it (CONTEXT_GROUNDED). The context is read as a window's is (its first
 * `DPE_LIMITS.maxFacts` facts); a claim past `maxClaims`, or longer than `maxSentenceChars`, is
 * not read and not grounded. Pure and deterministic.
 */
export function groundedClaims(
  claims: readonly string[],
  context: readonly ContextFact[],
  options: {
    /**
     * Facts whose spelling names entities, besides `context`'s: a caller that asks about a few
     * facts of a larger state (those a window added) passes the state, so each word reads as it
     * would against the whole (its first `DPE_LIMITS.maxFacts` facts).
     */
    readonly lexicon?: readonly ContextFact[];
  } = {},
): boolean[] {
  // Context and lexicon are read as a window's context is: checked, and bounded by DPE_LIMITS.
  const facts = (list: readonly ContextFact[]) =>
    readInput(
      { window_number: 0, text: '', context: list as ContextFact[], remaining: [], earlier: [] },
      DPE_LIMITS,
    ).context;
  const readable = claims.map(
    (c, i) =>
      i < DPE_LIMITS.maxClaims && typeof c === 'string' && c.length <= DPE_LIMITS.maxSentenceChars,
  );
  const texts = claims.filter((_, i) => readable[i]);
  const names = texts.flatMap((t) => entitiesBySpelling(t));
  for (const f of facts(options.lexicon ?? [])) names.push(...entitiesBySpelling(f.statement));
  const index = indexFacts(facts(context), names);
  return claims.map((text, i) => {
    if (!readable[i]) return false;
    const { claim } = attributeClaim(index, i, text, featuresOf(text, index.lexicon));
    return claim.attribution === 'CONTEXT_GROUNDED';
  });
}
