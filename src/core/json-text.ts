import { CanonryError } from './errors.js';

/** Default bound on nesting of JSON received from outside. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of arrays and objects in a JSON text, found by one scan that skips strings, so a
 * hostile document is measured before `JSON.parse` ever recurses into it. Stops early past `limit`.
 */
export function jsonTextDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * Parses JSON received from outside: refuses nesting beyond `maxDepth` (NESTING_TOO_DEEP) and text that
 * is not JSON (MALFORMED_BODY). Prototype-polluting keys are harmless here because `JSON.parse` creates
 * own properties, never setters.
 */
export function parseJsonText(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): unknown {
  if (jsonTextDepth(text, maxDepth) > maxDepth) {
    throw new CanonryError('NESTING_TOO_DEEP', `JSON nested deeper than ${maxDepth}`, { maxDepth });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CanonryError('MALFORMED_BODY', 'the text is not valid JSON');
  }
}
