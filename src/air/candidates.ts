import type { ContextFact } from '../dpe/index.js';
import { scaffolded } from './detect.js';
import type { AirInput } from './input.js';
import { conceptWords, factId, quote } from './text.js';
import { FRESHNESS_FLOOR, type InjectionSizes, AIR_LIMITS as L } from './thresholds.js';
import type {
  AirMode,
  AirState,
  ClaimEntry,
  ConceptFreshness,
  Detection,
  QuarantineEntry,
} from './types.js';

/** A context fact AIR may offer, with the concept words it shares with what it was chosen for. */
export interface OfferedFact {
  readonly id: string;
  readonly statement: string;
  readonly concepts: readonly string[];
}

/**
 * Everything the triggered components could carry, each list in priority order (what the budget
 * keeps first comes first). The budget then picks how much of each list goes into the packet.
 */
export interface Candidates {
  readonly window_source: number;
  /** Oldest first: the budget keeps the newest. */
  readonly quarantine: readonly QuarantineEntry[];
  readonly goal: {
    readonly task: string;
    readonly remaining: readonly string[];
    /** Newest first. */
    readonly completed: readonly string[];
  } | null;
  readonly retrieval: readonly OfferedFact[];
  readonly scaffolds: readonly {
    readonly claim_type: string;
    readonly examples: readonly string[];
  }[];
  /** Newest first. */
  readonly map: {
    readonly verified: readonly ClaimEntry[];
    readonly unverified: readonly ClaimEntry[];
  } | null;
  readonly flow: { readonly flow_score: number; readonly last_covered: string | null } | null;
  readonly vocabulary: {
    /** Newest first. */
    readonly forbidden: readonly string[];
    readonly anchors: readonly string[];
  } | null;
  /** Most exhausted first. */
  readonly freshness: readonly ConceptFreshness[];
}

interface Fresh {
  readonly id: string;
  readonly statement: string;
  readonly words: ReadonlySet<string>;
}

/**
 * Context facts no grounded claim has used yet: canonry's stand-in for "new CKF material". The
 * first `windowItems` unused ones, in context order, from the first `contextFacts` facts: used
 * facts are passed over before the bound is counted, so a long session whose early facts are all
 * used still offers the later ones (its newest facts and tool results come last).
 */
function freshFacts(context: readonly ContextFact[], state: AirState): Fresh[] {
  const used = new Set(state.used_fact_ids);
  const out: Fresh[] = [];
  const read = Math.min(context.length, L.contextFacts);
  for (let i = 0; i < read && out.length < L.windowItems; i++) {
    const f = context[i];
    if (typeof f?.id !== 'string' || typeof f.statement !== 'string') continue;
    const id = factId(f.id);
    if (used.has(id)) continue;
    out.push({ id, statement: quote(f.statement), words: new Set(conceptWords(f.statement)) });
  }
  return out;
}

function newestFirst<T>(items: readonly T[], max: number): T[] {
  return items.slice(Math.max(0, items.length - max)).reverse();
}

function goalOf(input: AirInput, state: AirState, sizes: InjectionSizes): Candidates['goal'] {
  const done = new Set(state.completed_sub_goals);
  const uncovered = input.signals.completeness.uncovered
    .slice(0, L.windowItems)
    .map((g) => quote(g));
  const remaining = (
    uncovered.length > 0
      ? uncovered
      : (input.task.remaining ?? []).slice(0, L.windowItems).map((g) => quote(g))
  ).filter((g, i, all) => g.length > 0 && !done.has(g) && all.indexOf(g) === i);
  if (remaining.length === 0) return null;
  return {
    task: quote(input.task.objective, L.taskChars),
    remaining: remaining.slice(0, sizes.remaining_sub_goals),
    completed: newestFirst(state.completed_sub_goals, sizes.completed_sub_goals),
  };
}

/** Unused facts sharing the most concept words with the window's ungrounded claims (§1.2). */
function retrievalOf(
  input: AirInput,
  fresh: readonly Fresh[],
  sizes: InjectionSizes,
): OfferedFact[] {
  const wanted = new Set(
    input.signals.claims
      .slice(0, L.windowItems)
      .filter((c) => c.attribution !== 'CONTEXT_GROUNDED')
      .flatMap((c) => conceptWords(c.text)),
  );
  return fresh
    .map((f, index) => ({ f, index, shared: [...f.words].filter((w) => wanted.has(w)) }))
    .filter((x) => x.shared.length > 0)
    .sort((a, b) => b.shared.length - a.shared.length || a.index - b.index)
    .slice(0, sizes.targeted_facts)
    .map(({ f, shared }) => ({ id: f.id, statement: f.statement, concepts: shared.slice(0, 4) }));
}

function scaffoldsOf(
  input: AirInput,
  mode: AirMode,
  sizes: InjectionSizes,
): Candidates['scaffolds'] {
  const byType = new Map<string, string[]>();
  for (const c of input.signals.claims.slice(0, L.windowItems)) {
    if (!scaffolded(c.attribution, mode)) continue;
    const type = quote(c.claim_type, L.claimTypeChars) || 'claim';
    const examples = byType.get(type) ?? [];
    if (examples.length < sizes.examples_per_scaffold) examples.push(quote(c.text, 160));
    byType.set(type, examples);
  }
  return [...byType]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .slice(0, sizes.scaffolds)
    .map(([claim_type, examples]) => ({ claim_type, examples }));
}

/**
 * Concepts worn below {@link FRESHNESS_FLOOR}, or used in the window's repeated n-grams, most
 * exhausted first; each with the blacklisted n-grams that use it and the unused facts on it.
 */
function freshnessOf(
  input: AirInput,
  state: AirState,
  fresh: readonly Fresh[],
  sizes: InjectionSizes,
): ConceptFreshness[] {
  const repeated = new Set(
    input.signals.repetition.ngrams.slice(0, L.windowItems).flatMap((n) => conceptWords(n.ngram)),
  );
  const blacklist = [...state.ngram_blacklist].reverse();
  return state.concepts
    .filter((c) => c.freshness < FRESHNESS_FLOOR || repeated.has(c.label))
    .sort((a, b) => a.freshness - b.freshness || (a.label < b.label ? -1 : 1))
    .slice(0, sizes.freshness)
    .map((c) => ({
      concept_label: c.label,
      freshness_score: Math.round(c.freshness * 1000) / 1000,
      preferred_communities: fresh
        .filter((f) => f.words.has(c.label))
        .slice(0, sizes.communities_per_concept)
        .map((f) => f.id),
      exhausted_phrasings: blacklist
        .filter((n) => conceptWords(n).includes(c.label))
        .slice(0, sizes.phrasings_per_concept),
    }));
}

/**
 * Builds every triggered component's candidate items from the state (after aggregation) and the
 * window's input. Untriggered components are empty or null.
 */
export function candidatesFor(
  input: AirInput,
  state: AirState,
  detection: Detection,
  mode: AirMode,
  sizes: InjectionSizes,
): Candidates {
  const on = new Set(detection.components);
  // The material is for the next window: from its context when the caller knows it (a fact this
  // window superseded is no longer there to cite).
  const fresh = freshFacts(input.next_context ?? input.context, state);
  const freshness = on.has('concept_freshness') ? freshnessOf(input, state, fresh, sizes) : [];
  const exhausted = new Set(freshness.map((c) => c.concept_label));
  const anchors = [...fresh]
    .map((f, index) => ({ f, index, hits: [...f.words].filter((w) => exhausted.has(w)).length }))
    .sort((a, b) => b.hits - a.hits || a.index - b.index)
    .slice(0, sizes.fresh_anchors)
    .map(({ f }) => f.statement);
  const last = state.completed_sub_goals.at(-1) ?? null;
  return {
    window_source: input.signals.window_number,
    quarantine: on.has('error_quarantine') ? newestTail(state.quarantine, sizes.quarantine) : [],
    goal: on.has('goal_residual') ? goalOf(input, state, sizes) : null,
    retrieval: on.has('targeted_retrieval') ? retrievalOf(input, fresh, sizes) : [],
    scaffolds: on.has('reasoning_scaffolds') ? scaffoldsOf(input, mode, sizes) : [],
    map: on.has('epistemic_map')
      ? {
          verified: newestFirst(state.verified_claims, sizes.map_claims),
          unverified: newestFirst(state.unverified_claims, sizes.map_claims),
        }
      : null,
    flow: on.has('flow_bridge')
      ? { flow_score: input.signals.flow_score, last_covered: last }
      : null,
    vocabulary: on.has('vocabulary_directives')
      ? { forbidden: newestFirst(state.ngram_blacklist, sizes.forbidden_phrases), anchors }
      : null,
    freshness,
  };
}

function newestTail<T>(items: readonly T[], max: number): T[] {
  return items.slice(Math.max(0, items.length - max));
}
