import { type ClaimSignal, groundedClaims } from '../dpe/index.js';
import type { AirInput } from './input.js';
import { fabricationRate, sessionIq } from './session-iq.js';
import { claimKey, conceptWords, distinctLast, factId, newest, quote } from './text.js';
import { FRESHNESS_DECAY, AIR_LIMITS as L } from './thresholds.js';
import {
  AIR_STATE_VERSION,
  type AirState,
  type ClaimEntry,
  type ConceptEntry,
  type QuarantineEntry,
} from './types.js';

/** The state before a session's first window. */
export function initialAirState(): AirState {
  return {
    version: AIR_STATE_VERSION,
    window_count: 0,
    loop_position: 0,
    quarantine: [],
    concepts: [],
    ngram_blacklist: [],
    verified_claims: [],
    unverified_claims: [],
    completed_sub_goals: [],
    used_fact_ids: [],
    repetition_sum: 0,
    session_iq: null,
  };
}

/** Mean of the windows' repetition ratios (§5.2 `cumulative_repetition_ratio`). */
export function cumulativeRepetition(state: AirState): number {
  return state.window_count === 0 ? 0 : state.repetition_sum / state.window_count;
}

function quarantineOf(input: AirInput): QuarantineEntry[] {
  const window = input.signals.window_number;
  return input.signals.contradictions.slice(0, L.windowItems).map((c) => ({
    original_claim: quote(c.claim),
    correction: c.fact === null ? null : quote(c.fact),
    fact_id: c.fact_id === null ? null : factId(c.fact_id),
    kind: c.kind,
    window,
  }));
}

/**
 * The quarantine entries whose fact the next window's context still holds (or that name none): one
 * judged against a fact the state let go (superseded or invalidated) is released — the
 * contradiction was with a fact no longer held; said again, the claim is judged afresh.
 */
function standing(quarantine: QuarantineEntry[], input: AirInput): QuarantineEntry[] {
  const next = input.next_context;
  if (next === undefined || next.length > L.contextFacts) return quarantine;
  // Nothing to release: the context (the whole state, 1,000+ facts) is not walked for nothing.
  if (quarantine.every((q) => q.fact_id === null)) return quarantine;
  const held = new Set<string>();
  for (const f of next) if (typeof f?.id === 'string') held.add(factId(f.id));
  return quarantine.filter((q) => q.fact_id === null || held.has(q.fact_id));
}

/**
 * Which of `claims` the next window's context grounds, as the DPE reads a claim against its facts
 * (`groundedClaims`: "We confirmed that the cdn runs version 6.0" against "the cdn runs version
 * 6.0"); none without a next context. A claim it grounds leaves the quarantine and the unverified
 * claims: a window may establish what an earlier one was flagged for, and the packet must never
 * forbid, or call unsupported, a sentence of the state the model is given.
 */
function settled(claims: readonly string[], input: AirInput): boolean[] {
  const none = claims.map(() => false);
  const next = input.next_context;
  if (next === undefined || claims.length === 0) return none;
  // Read as the DPE reads a window's context: facts with an id, a statement and a source.
  const facts = next.filter(
    (f) =>
      typeof f?.id === 'string' && typeof f.statement === 'string' && typeof f.source === 'string',
  );
  // Every claim here was read against this window's context and not grounded (or kept when the
  // last window's next context, this one, was read): only a fact the window added can ground it
  // now. So only those are indexed — a handful, not the state — with the state's spelling.
  // By id, then statement: no key string made per fact of the state.
  const seen = new Map<string, unknown>();
  for (const f of input.context) {
    if (typeof f?.id !== 'string') continue;
    const had = seen.get(f.id);
    if (had === undefined && !seen.has(f.id)) seen.set(f.id, f.statement);
    else if (had instanceof Set) had.add(f.statement);
    else if (had !== f.statement) seen.set(f.id, new Set([had, f.statement]));
  }
  const added = facts.filter((f) => {
    const had = seen.get(f.id);
    return had instanceof Set ? !had.has(f.statement) : had !== f.statement || !seen.has(f.id);
  });
  if (added.length === 0) return none;
  return groundedClaims(claims, added, { lexicon: facts });
}

function claimEntry(c: ClaimSignal, window: number): ClaimEntry {
  return {
    claim: quote(c.text),
    claim_type: quote(c.claim_type, L.claimTypeChars) || 'claim',
    fact_id: c.attribution === 'CONTEXT_GROUNDED' && c.fact_id !== null ? factId(c.fact_id) : null,
    window,
  };
}

/**
 * Each occurrence of a concept in the window's claims or repeated n-grams wears it out:
 * freshness × {@link FRESHNESS_DECAY} per occurrence. The state keeps the concepts seen most
 * recently (then most often), sorted by label.
 */
function decayConcepts(prior: readonly ConceptEntry[], input: AirInput): ConceptEntry[] {
  const window = input.signals.window_number;
  const seen = new Map<string, number>();
  const texts = [
    ...input.signals.claims.slice(0, L.windowItems).map((c) => c.text),
    ...input.signals.repetition.ngrams.slice(0, L.windowItems).map((n) => n.ngram),
  ];
  for (const text of texts) {
    for (const word of conceptWords(text)) seen.set(word, (seen.get(word) ?? 0) + 1);
  }
  const byLabel = new Map(prior.map((c) => [c.label, c]));
  for (const [label, occurrences] of seen) {
    const before = byLabel.get(label);
    byLabel.set(label, {
      label,
      freshness: (before?.freshness ?? 1) * FRESHNESS_DECAY ** occurrences,
      occurrences: (before?.occurrences ?? 0) + occurrences,
      last_window: window,
    });
  }
  const kept = [...byLabel.values()]
    .sort(
      (a, b) =>
        b.last_window - a.last_window ||
        b.occurrences - a.occurrences ||
        (a.label < b.label ? -1 : 1),
    )
    .slice(0, L.concepts);
  return kept.sort((a, b) => (a.label < b.label ? -1 : 1));
}

/**
 * Signal Aggregator: folds one window's signals into the session's state. Pure; the input is
 * checked by the caller (`checkAirInput`). `maxWindows` is the feedback loop's length (§3.3): the
 * window after a loop's last starts the next.
 */
export function aggregate(state: AirState, input: AirInput, maxWindows: number): AirState {
  const s = input.signals;
  const window = s.window_number;
  const claims = s.claims.slice(0, L.windowItems);
  const grounded = claims.filter((c) => c.attribution === 'CONTEXT_GROUNDED');
  const ungrounded = claims.filter((c) => c.attribution !== 'CONTEXT_GROUNDED');

  const verified = distinctLast(
    [...state.verified_claims, ...grounded.map((c) => claimEntry(c, window))],
    (c) => claimKey(c.claim),
  );
  const verifiedKeys = new Set(verified.map((c) => claimKey(c.claim)));
  const unverified = newest(
    distinctLast(
      [...state.unverified_claims, ...ungrounded.map((c) => claimEntry(c, window))],
      (c) => claimKey(c.claim),
    ).filter((c) => !verifiedKeys.has(claimKey(c.claim))),
    L.claims,
  );
  // The lists are cut to their bounds first, so what is read against the next context is bounded
  // (at most 32 + 64 claims) and the newest entries are the ones read.
  const quarantined = newest(
    standing(
      distinctLast([...state.quarantine, ...quarantineOf(input)], (q) =>
        claimKey(q.original_claim),
      ),
      input,
    ),
    L.quarantine,
  );
  const grounds = settled(
    [...quarantined.map((q) => q.original_claim), ...unverified.map((c) => c.claim)],
    input,
  );

  const next: Omit<AirState, 'session_iq'> = {
    version: AIR_STATE_VERSION,
    window_count: state.window_count + 1,
    loop_position: state.loop_position >= maxWindows ? 1 : state.loop_position + 1,
    quarantine: quarantined.filter((_, i) => !grounds[i]),
    concepts: decayConcepts(state.concepts, input),
    ngram_blacklist: newest(
      distinctLast(
        [
          ...state.ngram_blacklist,
          ...s.repetition.ngrams.slice(0, L.windowItems).map((n) => quote(n.ngram).toLowerCase()),
        ].filter((n) => n.length > 0),
        (n) => n,
      ),
      L.blacklist,
    ),
    verified_claims: newest(verified, L.claims),
    unverified_claims: unverified.filter((_, i) => !grounds[quarantined.length + i]),
    completed_sub_goals: newest(
      distinctLast(
        [
          ...state.completed_sub_goals,
          ...s.completeness.covered.slice(0, L.windowItems).map((g) => quote(g)),
        ],
        (g) => g,
      ),
      L.subGoals,
    ),
    used_fact_ids: newest(
      distinctLast(
        [
          ...state.used_fact_ids,
          ...grounded.flatMap((c) => (c.fact_id === null ? [] : [factId(c.fact_id)])),
        ],
        (id) => id,
      ),
      L.usedFacts,
    ),
    repetition_sum: state.repetition_sum + s.repetition.ratio,
  };
  const iq = sessionIq({
    cumulative_repetition_ratio: next.repetition_sum / next.window_count,
    completeness_score: s.completeness.score,
    fabrication_rate: fabricationRate(s),
    flow_score: s.flow_score,
  });
  return { ...next, session_iq: iq };
}
