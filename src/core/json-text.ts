import { CanonryError } from './errors.js';

/** Default bound on nesting of JSON received from outside. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * Default bound on the values of one JSON text received from outside (32,768, an object member
 * counting twice). Every pass over a parsed document — canonicalizing, hashing, re-parsing,
 * checking — costs per value, objects' members about twice what array elements do, and the
 * small-value shapes an attacker favours cost ~0.3 µs a value a pass: this bound, not the byte limit
 * alone, keeps one request's work within its time target (`bench/kernel/worst-case.js`).
 */
export const DEFAULT_MAX_JSON_VALUES = 32_768;

/**
 * Default bound on the distinct member names of one JSON text (4,096). Each new name costs the
 * parser a new object shape, ~1 µs, several times over per request: 60,000 one-key objects with
 * distinct keys cost 140 ms to parse and canonicalize in a 1 MiB body.
 */
export const DEFAULT_MAX_JSON_KEYS = 4_096;

/** The shape of a JSON text, measured before it is parsed. */
export interface JsonTextShape {
  /** The deepest nesting of arrays and objects (the scan stops once past a limit). */
  readonly depth: number;
  /**
   * An upper bound on the values in the text, weighted: the root, each container, each array
   * element after the first, and each object member twice (counted at its `:`).
   */
  readonly values: number;
  /** Distinct member names (by their raw text), when a key limit was given; else 0. */
  readonly keys: number;
}

/** Bounds for {@link jsonTextShape}; the scan stops as soon as one is passed. */
export interface JsonTextLimits {
  readonly depth?: number;
  readonly values?: number;
  /** Counting distinct member names costs a set of their texts: only when a bound is given. */
  readonly keys?: number;
}

/**
 * Measures a JSON text by one scan of its structural characters that jumps over strings (searching
 * for their closing quote, which is fast on long text), so a hostile document is measured before
 * `JSON.parse` ever recurses into it, at a fraction of the cost of parsing it.
 */
export function jsonTextShape(text: string, limits: JsonTextLimits = {}): JsonTextShape {
  const maxDepth = limits.depth ?? Number.POSITIVE_INFINITY;
  const maxValues = limits.values ?? Number.POSITIVE_INFINITY;
  const names = limits.keys === undefined ? null : new Set<string>();
  let depth = 0;
  let deepest = 0;
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i + 1);
      if (names !== null && isKey(text, end)) {
        names.add(text.slice(i + 1, end - 1));
        if (names.size > (limits.keys as number)) break;
      }
      i = end - 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      values++;
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) values++;
    else if (c === 0x3a) values++;
    else continue;
    if (deepest > maxDepth || values > maxValues) break;
  }
  return { depth: deepest, values, keys: names?.size ?? 0 };
}

/**
 * The first member name that appears twice in one object of a JSON text, decoded (`"a"` and
 * `"\u0061"` are the same name), or null. `JSON.parse` keeps the last of them silently, while
 * another reader may keep the first: a signed or hashed document must have one meaning (RFC 7493
 * §2.3). One scan, a set of names per open object; call it on text already known to parse.
 */
export function duplicateMemberName(text: string): string | null {
  const open: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i + 1);
      const names = open.at(-1);
      if (names && isKey(text, end)) {
        const name = JSON.parse(text.slice(i, end)) as string;
        if (names.has(name)) return name;
        names.add(name);
      }
      i = end - 1;
    } else if (c === 0x7b) open.push(new Set());
    else if (c === 0x5b) open.push(null);
    else if (c === 0x7d || c === 0x5d) open.pop();
  }
  return null;
}

/** Whether the string ending before `end` is a member name: a `:` follows it (after whitespace). */
function isKey(text: string, end: number): boolean {
  for (let i = end; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

/** The index after the quote that closes a string whose body starts at `from` (the text's end if none). */
function stringEnd(text: string, from: number): number {
  for (let at = from; ; at++) {
    at = text.indexOf('"', at);
    if (at === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at + 1;
  }
}

/**
 * The deepest nesting of arrays and objects in a JSON text (see {@link jsonTextShape}); stops early
 * past `limit`.
 */
export function jsonTextDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  return jsonTextShape(text, { depth: limit }).depth;
}

/**
 * Parses JSON received from outside: refuses nesting beyond `maxDepth` (NESTING_TOO_DEEP), more
 * values or distinct member names than `limits` allow (PAYLOAD_TOO_LARGE) and text that is not JSON
 * (MALFORMED_BODY). Prototype-polluting keys are harmless here because `JSON.parse` creates own
 * properties, never setters.
 */
export function parseJsonText(
  text: string,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
  limits: { values?: number; keys?: number } = {},
): unknown {
  const shape = jsonTextShape(text, { depth: maxDepth, ...limits });
  if (shape.depth > maxDepth) {
    throw new CanonryError('NESTING_TOO_DEEP', `JSON nested deeper than ${maxDepth}`, { maxDepth });
  }
  if (limits.values !== undefined && shape.values > limits.values) {
    throw new CanonryError('PAYLOAD_TOO_LARGE', `JSON with more than ${limits.values} values`, {
      maxValues: limits.values,
    });
  }
  if (limits.keys !== undefined && shape.keys > limits.keys) {
    throw new CanonryError(
      'PAYLOAD_TOO_LARGE',
      `JSON with more than ${limits.keys} distinct member names`,
      { maxKeys: limits.keys },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CanonryError('MALFORMED_BODY', 'the text is not valid JSON');
  }
}
