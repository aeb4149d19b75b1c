import { countTokens } from '../core/index.js';
import { reAnchor } from './assemble.js';
import { renderPacket } from './render.js';
import type { AirPacket, Iap } from './types.js';

/** A built packet held to another budget: what is left of it, its text and that text's tokens. */
export interface RefittedPacket {
  readonly packet: AirPacket;
  /** '' when nothing of it fits. */
  readonly text: string;
  readonly tokens: number;
}

type Step = (p: AirPacket) => AirPacket | null;
const withIap = (p: AirPacket, iap: Partial<Iap>): AirPacket => ({
  ...p,
  iap: { ...p.iap, ...iap },
});

/**
 * One item less of one component, in the order the budget gives them up (`DROP_ORDER`), or null
 * when that component has nothing left. A packet keeps its items, not the candidates they were
 * chosen from, so the epistemic map and the targeted facts (whose texts cite fact ids the packet
 * does not list beside them) go whole; every other list loses its least wanted item first.
 */
const STEPS: readonly Step[] = [
  (p) =>
    p.iap.concept_freshness.length === 0
      ? null
      : withIap(p, { concept_freshness: p.iap.concept_freshness.slice(0, -1) }),
  (p) => {
    const v = p.iap.vocabulary_directives;
    if (v === null || v.fresh_anchors.length === 0) return null;
    const vocab = { ...v, fresh_anchors: v.fresh_anchors.slice(0, -1) };
    const empty = vocab.fresh_anchors.length + vocab.forbidden_phrases.length === 0;
    return withIap(p, { vocabulary_directives: empty ? null : vocab });
  },
  (p) => {
    const v = p.iap.vocabulary_directives;
    if (v === null || v.forbidden_phrases.length === 0) return null;
    const vocab = { ...v, forbidden_phrases: v.forbidden_phrases.slice(0, -1) };
    const empty = vocab.fresh_anchors.length + vocab.forbidden_phrases.length === 0;
    return withIap(p, { vocabulary_directives: empty ? null : vocab });
  },
  (p) => (p.flow_bridge === null ? null : { ...p, flow_bridge: null }),
  (p) => (p.iap.epistemic_map === null ? null : withIap(p, { epistemic_map: null })),
  (p) =>
    p.iap.reasoning_scaffolds.length === 0
      ? null
      : withIap(p, { reasoning_scaffolds: p.iap.reasoning_scaffolds.slice(0, -1) }),
  (p) => (p.targeted_retrieval === null ? null : { ...p, targeted_retrieval: null }),
  (p) => {
    // Covered sub-goals are listed oldest first: the oldest goes first.
    const g = p.iap.goal_residual;
    if (g === null || g.completed_sub_goals.length === 0) return null;
    const completed = g.completed_sub_goals.slice(1);
    const goal = {
      ...g,
      completed_sub_goals: completed,
      re_anchor_injection: reAnchor(g.original_task, completed, g.remaining_sub_goals),
    };
    return withIap(p, { goal_residual: goal });
  },
  (p) => {
    const g = p.iap.goal_residual;
    if (g === null) return null;
    const remaining = g.remaining_sub_goals.slice(0, -1);
    if (remaining.length === 0) return withIap(p, { goal_residual: null });
    const goal = {
      ...g,
      remaining_sub_goals: remaining,
      re_anchor_injection: reAnchor(g.original_task, g.completed_sub_goals, remaining),
    };
    return withIap(p, { goal_residual: goal });
  },
  // The quarantine keeps its newest items (they are listed oldest first).
  (p) =>
    p.iap.error_quarantine.length === 0
      ? null
      : withIap(p, { error_quarantine: p.iap.error_quarantine.slice(1) }),
];

/**
 * Holds a packet AIR already built to `budget` tokens (CRP-018 §6.1: the window that carries the
 * packet may set a smaller `air-iap-budget` than the one it was built with): components are given
 * up in the budget's order, an item at a time, each result rendered and counted, until the text
 * fits. Never over budget; an empty text when nothing fits. A packet already within budget is
 * returned as it is. Work: one render per item dropped (a packet holds at most a few hundred).
 */
export function refitPacket(packet: AirPacket, budget: number): RefittedPacket {
  let current = packet;
  let text = renderPacket(current);
  let tokens = text.length === 0 ? 0 : countTokens(text);
  let step = 0;
  while (tokens > budget && step < STEPS.length) {
    const next = STEPS[step]!(current);
    if (next === null) {
      step++;
      continue;
    }
    current = next;
    text = renderPacket(current);
    tokens = text.length === 0 ? 0 : countTokens(text);
  }
  if (tokens > budget) return { packet: current, text: '', tokens: 0 };
  return { packet: current, text, tokens };
}
