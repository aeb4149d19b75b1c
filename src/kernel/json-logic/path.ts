/**
 * Own-property paths. A lookup only ever follows OWN members of objects, arrays and strings, so
 * `__proto__`, `constructor`, `toString` and other prototype members are absent.
 */

/** The result of a lookup that found nothing (distinct from a found `null`). */
export const ABSENT: unique symbol = Symbol('absent');

/** The array index `name` stands for (canonical, below 2^32 - 1), or -1. */
function indexOf(name: string): number {
  // The largest index has 10 digits; anything longer is a name (and is not parsed).
  if (name.length === 0 || name.length > 10) return -1;
  const index = Number(name);
  return Number.isInteger(index) && index < 4_294_967_295 && String(index) === name ? index : -1;
}

/**
 * The own member `key` of `container`, or ABSENT. The own members of a JSON array or a string are
 * its indices and `length`, read directly (`Object.hasOwn` on an array is a slow runtime call).
 */
export function member(container: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') return ABSENT;
  const name = String(key);
  if (typeof container === 'string' || Array.isArray(container)) {
    if (name === 'length') return container.length;
    const index = indexOf(name);
    return index >= 0 && index < container.length ? container[index] : ABSENT;
  }
  if (container === null || typeof container !== 'object') return ABSENT;
  return Object.hasOwn(container, name) ? (container as Record<string, unknown>)[name] : ABSENT;
}

/**
 * Splits a dotted `var` path. `\.` and `\/` stand for the character itself, `\\` for one
 * backslash, and any other backslash is kept. A path made only of dots names that many empty keys;
 * otherwise the text after the last dot is a segment too (`a.` is `a` then ''); '' has no segments.
 */
export function splitPath(path: string): string[] {
  if (path === '') return [];
  if (!path.includes('\\')) {
    const parts = path.split('.');
    if (parts.every((part) => part === '')) parts.pop();
    return parts;
  }
  const parts: string[] = [];
  let current = '';
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const char = path[i];
    if (char === '.') {
      parts.push(current + path.slice(start, i));
      current = '';
      start = i + 1;
    } else if (char === '\\') {
      const next = path[i + 1];
      const escaped = next === '.' || next === '/' || next === '\\';
      current += path.slice(start, i) + (escaped ? next : char);
      if (escaped) i++;
      start = i + 1;
    }
  }
  parts.push(current + path.slice(start));
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
