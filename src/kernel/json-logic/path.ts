/**
 * Own-property paths. A lookup only ever follows OWN members of objects, arrays and strings, so
 * `__proto__`, `constructor`, `toString` and other prototype members are absent.
 */

/** The result of a lookup that found nothing (distinct from a found `null`). */
export const ABSENT: unique symbol = Symbol('absent');

/** The own member `key` of `container`, or ABSENT. */
export function member(container: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') return ABSENT;
  if (container === null || (typeof container !== 'object' && typeof container !== 'string')) {
    return ABSENT;
  }
  const name = String(key);
  // Object.hasOwn boxes strings, whose own members are their indices and `length`.
  return Object.hasOwn(container as object, name)
    ? (container as Record<string, unknown>)[name]
    : ABSENT;
}

/**
 * Splits a dotted `var` path. `\.` and `\/` stand for the character itself, `\\` for one
 * backslash, and any other backslash is kept. A path made only of dots names that many empty keys;
 * otherwise the text after the last dot is a segment too (`a.` is `a` then ''); '' has no segments.
 */
export function splitPath(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  let onlyDots = path.length > 0;
  for (let i = 0; i < path.length; i++) {
    const char = path[i];
    if (char === '\\') {
      onlyDots = false;
      const next = path[i + 1];
      if (next === '.' || next === '/' || next === '\\') {
        current += next;
        i++;
      } else current += char;
    } else if (char === '.') {
      parts.push(current);
      current = '';
    } else {
      onlyDots = false;
      current += char;
    }
  }
  if (!onlyDots && path.length > 0) parts.push(current);
  return parts;
}

/** Follows path segments from `context`; ABSENT when a step is missing or lands on null. */
export function follow(context: unknown, segments: readonly string[]): unknown {
  let current = context;
  for (const segment of segments) {
    if (current === null || current === undefined) return ABSENT;
    current = member(current, segment);
    if (current === ABSENT) return ABSENT;
  }
  return current;
}
