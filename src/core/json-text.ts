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
  /**
   * The first member name one object gives twice, decoded (`"a"` and `"\u0061"` are one name), when
   * `unique` was asked for; else null.
   */
  readonly duplicate: string | null;
}

/** Bounds for {@link jsonTextShape}; the scan stops as soon as one is passed. */
export interface JsonTextLimits {
  readonly depth?: number;
  readonly values?: number;
  /** Counting distinct member names costs a set of their texts: only when a bound is given. */
  readonly keys?: number;
  /** Look for a member name given twice in one object (see {@link JsonTextShape.duplicate}). */
  readonly unique?: boolean;
}

/**
 * Measures a JSON text by one scan of its structural characters that jumps over strings (searching
 * for their closing quote, which is fast on long text), so a hostile document is measured before
 * `JSON.parse` ever recurses into it, at a fraction of the cost of parsing it. With `unique`, the
 * same scan keeps each open object's member names, so a name given twice costs no second pass.
 */
export function jsonTextShape(text: string, limits: JsonTextLimits = {}): JsonTextShape {
  const maxDepth = limits.depth ?? Number.POSITIVE_INFINITY;
  const maxValues = limits.values ?? Number.POSITIVE_INFINITY;
  const names = limits.keys === undefined ? null : new Set<string>();
  // The member names of each open object, by depth: in a list reused from object to object (most
  // objects have a few members, compared in turn), then in a set past SHORT_NAMES. Kept only until
  // a name is found twice.
  const unique = limits.unique === true;
  const lists: string[][] = [];
  const counts: number[] = [];
  const sets: (Set<string> | null)[] = [];
  let duplicate: string | null = null;
  let depth = 0;
  let deepest = 0;
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i + 1);
      if ((names !== null || unique) && isKey(text, end)) {
        const raw = text.slice(i + 1, end - 1);
        if (names !== null) {
          names.add(raw);
          if (names.size > (limits.keys as number)) break;
        }
        if (unique && duplicate === null && depth > 0) {
          const name = raw.includes('\\') ? decodedName(text.slice(i, end)) : raw;
          if (seenTwice(name, depth - 1, lists, counts, sets)) duplicate = name;
        }
      }
      i = end - 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      values++;
      if (++depth > deepest) deepest = depth;
      if (unique && depth > 0) {
        counts[depth - 1] = 0;
        sets[depth - 1] = null;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c) values++;
    else if (c === 0x3a) values++;
    else continue;
    if (deepest > maxDepth || values > maxValues) break;
  }
  return { depth: deepest, values, keys: names?.size ?? 0, duplicate };
}

/** Names an object keeps in a list, compared in turn, before they move to a set. */
const SHORT_NAMES = 16;

/** Records `name` as a member of the object open at `level`; whether it had it already. */
function seenTwice(
  name: string,
  level: number,
  lists: string[][],
  counts: number[],
  sets: (Set<string> | null)[],
): boolean {
  const set = sets[level];
  if (set) {
    if (set.has(name)) return true;
    set.add(name);
    return false;
  }
  let list = lists[level];
  if (list === undefined) {
    list = [];
    lists[level] = list;
  }
  const count = counts[level] as number;
  for (let j = 0; j < count; j++) if (list[j] === name) return true;
  if (count < SHORT_NAMES) {
    list[count] = name;
    counts[level] = count + 1;
  } else {
    sets[level] = new Set(list).add(name);
  }
  return false;
}

/** A quoted member name decoded; its raw text when it is no JSON string (`JSON.parse` refuses it). */
function decodedName(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * The first member name that appears twice in one object of a JSON text, decoded (`"a"` and
 * `"\u0061"` are the same name), or null. `JSON.parse` keeps the last of them silently, while
 * another reader may keep the first: a signed or hashed document must have one meaning (RFC 7493
 * §2.3). {@link parseJsonText} refuses such text itself.
 */
export function duplicateMemberName(text: string): string | null {
  return jsonTextShape(text, { unique: true }).duplicate;
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

/** Characters of a member name given twice that an error quotes. */
const MAX_QUOTED_NAME = 64;

/**
 * Parses JSON received from outside: refuses nesting beyond `maxDepth` (NESTING_TOO_DEEP), more
 * values or distinct member names than `limits` allow (PAYLOAD_TOO_LARGE), text that is not JSON and
 * an object that names a member twice (MALFORMED_BODY, the name quoted cut to 64 characters): the
 * parser keeps the last of two, another reader the first, so the text would mean two things (RFC
 * 7493 §2.3). Prototype-polluting keys are harmless here because `JSON.parse` creates own
 * properties, never setters.
 */
export function parseJsonText(
  text: string,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
  limits: { values?: number; keys?: number } = {},
): unknown {
  const shape = jsonTextShape(text, { depth: maxDepth, ...limits, unique: true });
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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CanonryError('MALFORMED_BODY', 'the text is not valid JSON');
  }
  if (shape.duplicate !== null) {
    const member = cutName(shape.duplicate);
    throw new CanonryError(
      'MALFORMED_BODY',
      `an object names member ${JSON.stringify(member)} twice`,
      { member },
    );
  }
  return value;
}

/** A member name as an error quotes it: its first {@link MAX_QUOTED_NAME} code points. */
function cutName(name: string): string {
  // 64 code points lie within the first 128 code units, whole.
  const head = [...name.slice(0, MAX_QUOTED_NAME * 2)].slice(0, MAX_QUOTED_NAME).join('');
  return head.length < name.length ? `${head}…` : name;
}
