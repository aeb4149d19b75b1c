import { CanonryError } from '../core/index.js';
import type { DPE_LIMITS } from './limits.js';
import { headWithin, readSize, tailWithin } from './read-size.js';
import type { ContextFact, DpeInput } from './types.js';

/** The limits one analysis uses: the defaults, each optionally lowered (never raised). */
export type DpeLimits = { -readonly [K in keyof typeof DPE_LIMITS]: number };

/** What the engine reads of an input: validated, cut to the limits, and whether anything was cut. */
export interface ReadInput {
  readonly window_number: number;
  readonly text: string;
  readonly context: readonly ContextFact[];
  readonly remaining: readonly string[];
  readonly earlier: readonly string[];
  readonly truncated: boolean;
}

function invalid(path: string, what: string): CanonryError {
  return new CanonryError('INVALID_ARGUMENT', `DPE input: ${path} must be ${what}`, { path });
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalid(path, 'a string');
  return value;
}

function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw invalid(path, 'an array');
  return value;
}

/**
 * Checks the input's shape (a wrong shape is `INVALID_ARGUMENT`, naming the field) and cuts it to
 * the limits, each length counted in NFKC (a character counts as its compatibility form's length): the text to its first `maxTextChars`, the first `maxFacts` facts (each statement to
 * `maxFactChars`), the first `maxRemaining` items, the last `maxEarlierWindows` earlier windows
 * within `maxEarlierChars` (newest first; the oldest one read may be cut). Only what is read is
 * checked, so the cost is bounded by the limits, not the input.
 */
export function readInput(input: DpeInput, limits: DpeLimits): ReadInput {
  if (typeof input !== 'object' || input === null) throw invalid('input', 'an object');
  const n = input.window_number;
  if (!Number.isSafeInteger(n) || n < 0) throw invalid('window_number', 'an integer ≥ 0');
  let truncated = false;
  // Lengths are counted in the NFKC form the engine reads (read-size.ts), not as sent.
  const cut = (text: string, max: number): string => {
    const head = headWithin(text, max);
    if (head.length < text.length) truncated = true;
    return head;
  };
  const text = cut(string(input.text, 'text'), limits.maxTextChars);

  const rawContext = array(input.context, 'context');
  if (rawContext.length > limits.maxFacts) truncated = true;
  const context: ContextFact[] = [];
  for (let i = 0; i < Math.min(rawContext.length, limits.maxFacts); i++) {
    const f = rawContext[i] as Record<string, unknown> | null;
    if (typeof f !== 'object' || f === null) throw invalid(`context[${i}]`, 'an object');
    context.push({
      id: string(f.id, `context[${i}].id`),
      statement: cut(string(f.statement, `context[${i}].statement`), limits.maxFactChars),
      source: string(f.source, `context[${i}].source`),
    });
  }

  const rawRemaining = array(input.remaining, 'remaining');
  if (rawRemaining.length > limits.maxRemaining) truncated = true;
  const remaining: string[] = [];
  for (let i = 0; i < Math.min(rawRemaining.length, limits.maxRemaining); i++) {
    remaining.push(cut(string(rawRemaining[i], `remaining[${i}]`), limits.maxRemainingChars));
  }

  const rawEarlier = array(input.earlier, 'earlier');
  const from = Math.max(0, rawEarlier.length - limits.maxEarlierWindows);
  if (from > 0) truncated = true;
  const earlier: string[] = [];
  let budget = limits.maxEarlierChars;
  for (let i = rawEarlier.length - 1; i >= from; i--) {
    const t = string(rawEarlier[i], `earlier[${i}]`);
    if (budget <= 0) {
      truncated = true;
      break;
    }
    const kept = tailWithin(t, budget);
    if (kept.length < t.length) truncated = true;
    earlier.unshift(kept);
    budget -= readSize(kept);
  }
  return { window_number: n, text, context, remaining, earlier, truncated };
}
