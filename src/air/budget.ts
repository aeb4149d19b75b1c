import { countTokens } from '../core/index.js';
import { assemble, DROP_ORDER, fullShape, type Knob, type Shape } from './assemble.js';
import type { Candidates } from './candidates.js';
import { renderPacket } from './render.js';
import type { AirPacket } from './types.js';

/** A packet held to its budget, the text it renders to and what the budget left out. */
export interface FittedPacket {
  readonly packet: AirPacket;
  /** The text to inject ('' when nothing is). */
  readonly text: string;
  /** o200k_base tokens of `text` (core's `countTokens`), never above the budget. */
  readonly tokens: number;
  /** Items each knob lost to the budget (only knobs that lost any). */
  readonly dropped: Partial<Record<Knob, number>>;
}

/**
 * Holds the packet to `budget` tokens. Knobs are turned down in {@link DROP_ORDER}: while the
 * packet is over budget the next knob is emptied; the first knob at which it fits keeps as many
 * of its items as fit (a binary search, every candidate measured by rendering and counting). The
 * quarantine is the last knob and keeps its newest items. The result is always measured, so it is
 * never over budget; at worst it is empty. Work: O(knobs × log items) renders.
 */
export function fitToBudget(c: Candidates, budget: number): FittedPacket {
  const full = fullShape(c);
  const measure = (shape: Shape) => {
    const packet = assemble(c, shape);
    const text = renderPacket(packet);
    return { packet, text, tokens: text.length === 0 ? 0 : countTokens(text) };
  };
  const shape: Shape = { ...full };
  let best = measure(shape);
  for (const knob of DROP_ORDER) {
    if (best.tokens <= budget) break;
    if (shape[knob] === 0) continue;
    const without = measure({ ...shape, [knob]: 0 });
    if (without.tokens > budget) {
      shape[knob] = 0;
      best = without;
      continue;
    }
    // Fits at 0, not at shape[knob]: find the most items that fit.
    let lo = 0;
    let hi = shape[knob];
    let fit = without;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      const trial = measure({ ...shape, [knob]: mid });
      if (trial.tokens <= budget) {
        lo = mid;
        fit = trial;
      } else {
        hi = mid;
      }
    }
    shape[knob] = lo;
    best = fit;
  }
  if (best.tokens > budget) {
    // Only reachable if an empty packet rendered text; kept as a guard on the invariant.
    for (const knob of DROP_ORDER) shape[knob] = 0;
    best = measure(shape);
  }
  const dropped: Partial<Record<Knob, number>> = {};
  for (const knob of DROP_ORDER) {
    if (shape[knob] < full[knob]) dropped[knob] = full[knob] - shape[knob];
  }
  return { ...best, dropped };
}
