import { CanonryError } from './errors.js';

/** A JSON value as canonry stores, hashes and signs it. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/** Nesting beyond this is refused rather than risking the stack. */
export const MAX_CANONICAL_DEPTH = 512;

/**
 * RFC 8785 (JCS) canonical JSON: object members sorted by UTF-16 code units, no whitespace, strings and
 * numbers serialised as ECMAScript does. Anything that is not JSON (undefined in an array, NaN, a Date,
 * a lone surrogate, a cycle) is refused with NOT_CANONICALIZABLE rather than silently changed, because
 * a changed value would hash to something the caller never sent. Object members whose value is
 * `undefined` are omitted, as `JSON.stringify` omits them.
 *
 * @example canonicalize({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalize(value: unknown): string {
  return write(value, 0);
}

/** Texts of objects declared never to change again, with how deep they nest (see below). */
const kept = new WeakMap<object, { readonly text: string; readonly height: number }>();
let anyKept = false;
/** The deepest object or array the current encoding met (how tall a kept value is). */
let deepest = 0;

/**
 * {@link canonicalize} of an object its owner never changes again (as the relay's CSO items, carried
 * from window to window by identity): its text is kept with it, weakly, and every later
 * `canonicalize` that meets this very object — alone or inside another value — uses the text
 * instead of encoding it again. The same refusals hold: one nested too deep where it is met is
 * still refused. Changing the object afterwards would make its kept text a lie; only use this for
 * values that are never written again.
 */
export function canonicalizeFixed(value: object): string {
  const known = kept.get(value);
  if (known !== undefined) return known.text;
  if (value === null) return 'null';
  deepest = 0;
  const text = writeComposite(value, 0);
  kept.set(value, { text, height: deepest + 1 });
  anyKept = true;
  return text;
}

/** The UTF-8 bytes of {@link canonicalize}. */
export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(canonicalize(value), 'utf8');
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return writeString(value);
    case 'number':
      if (!Number.isFinite(value)) refuse('a number that is not finite');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (anyKept) {
        const known = kept.get(value);
        if (known !== undefined) {
          const bottom = depth + known.height - 1;
          if (bottom >= MAX_CANONICAL_DEPTH) refuse(`nesting deeper than ${MAX_CANONICAL_DEPTH}`);
          if (bottom > deepest) deepest = bottom;
          return known.text;
        }
      }
      return writeComposite(value, depth);
    default:
      return refuse(`a value of type ${typeof value}`);
  }
}

function writeComposite(value: object, depth: number): string {
  if (depth >= MAX_CANONICAL_DEPTH) refuse(`nesting deeper than ${MAX_CANONICAL_DEPTH}`);
  if (depth > deepest) deepest = depth;
  return Array.isArray(value) ? writeArray(value, depth) : writeObject(value, depth);
}

/**
 * Printable ASCII other than `"` and `\` is serialised as itself (RFC 8785 §3.2.2.2, as
 * `JSON.stringify` does); hashes, ids, keys and most text are such strings, and quoting them directly
 * saves a call into the engine for each. A regular expression tells (~0.7 of a loop over the
 * characters, on the kernel's audit records' strings).
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * A string as RFC 8785 writes it (quoted, escaped as `JSON.stringify` escapes); a lone surrogate is
 * refused (NOT_CANONICALIZABLE). For texts assembled from canonical parts.
 */
export function canonicalString(value: string): string {
  return writeString(value);
}

function writeString(value: string): string {
  if (PLAIN.test(value)) return `"${value}"`;
  if (!value.isWellFormed()) refuse('a string with a lone surrogate');
  return JSON.stringify(value);
}

function writeArray(items: readonly unknown[], depth: number): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === undefined) refuse('undefined inside an array');
    if (i > 0) out += ',';
    out += write(item, depth + 1);
  }
  return `${out}]`;
}

function writeObject(value: object, depth: number): string {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) refuse('an object that is not a plain object');
  const record = value as Record<string, unknown>;
  const keys = sortedKeys(record);
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (!first) out += ',';
    first = false;
    out += `${writeString(key)}:${write(member, depth + 1)}`;
  }
  return `${out}}`;
}

/** Above this many members `Array.prototype.sort` beats the insertion sort below. */
const INSERTION_SORT_MAX = 24;

/**
 * The object's own keys in UTF-16 code unit order (what `sort()` with no comparator gives): an
 * insertion sort in place for the few members most objects have, which for keys already in order
 * (objects parsed from canonical JSON) is one pass, and allocates nothing beyond the keys' array
 * (`sort()` copies into a work array of its own on every call).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  const n = keys.length;
  if (n > INSERTION_SORT_MAX) return keys.sort();
  for (let i = 1; i < n; i++) {
    const key = keys[i]!;
    let j = i - 1;
    if (keys[j]! < key) continue;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

function refuse(what: string): never {
  throw new CanonryError('NOT_CANONICALIZABLE', `cannot canonicalize ${what}`);
}
