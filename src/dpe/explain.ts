import { headOf } from '../core/index.js';
import { DPE_LIMITS } from './limits.js';

/**
 * A text quoted in an explanation, cut to {@link DPE_LIMITS.maxQuoteChars}, never inside a
 * surrogate pair (half of one is not text: the relay could not seal or journal it).
 */
export function quote(text: string): string {
  const max = DPE_LIMITS.maxQuoteChars;
  return `"${text.length > max ? `${headOf(text, max - 1)}…` : text}"`;
}

/** A share in 0–1, rounded to three decimals so equal inputs give equal bytes everywhere. */
export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
