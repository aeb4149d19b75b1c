/**
 * JSON equality as JSON Schema defines it: numbers by value (1 equals 1.0), objects by their own
 * keys regardless of order, arrays item by item. Iterative, so deep instances cannot overflow.
 */

/** Whether a value is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether two JSON values are equal. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pending.push((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]);
    }
  }
  return true;
}

/** Literal text in {@link jsonKey}'s work list, as opposed to a value still to serialize. */
class Text {
  constructor(readonly text: string) {}
}
const OPEN_ARRAY = new Text('[');
const CLOSE_ARRAY = new Text(']');
const OPEN_OBJECT = new Text('{');
const CLOSE_OBJECT = new Text('}');
const COMMA = new Text(',');

/** A string that is equal for two JSON values exactly when {@link jsonEqual} holds. */
export function jsonKey(value: unknown): string {
  let out = '';
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next instanceof Text) out += next.text;
    else if (typeof next === 'string') out += JSON.stringify(next);
    else if (typeof next === 'number')
      out += String(next); // String(-0) is '0'
    else if (typeof next === 'boolean' || next === null) out += String(next);
    else if (Array.isArray(next)) {
      pending.push(CLOSE_ARRAY);
      for (let i = next.length - 1; i >= 0; i--) {
        pending.push(next[i]);
        if (i > 0) pending.push(COMMA);
      }
      pending.push(OPEN_ARRAY);
    } else if (typeof next === 'object') {
      const keys = Object.keys(next).sort();
      pending.push(CLOSE_OBJECT);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        pending.push((next as Record<string, unknown>)[key]);
        pending.push(new Text(`${JSON.stringify(key)}:`));
        if (i > 0) pending.push(COMMA);
      }
      pending.push(OPEN_OBJECT);
    } else out += `?${typeof next}`;
  }
  return out;
}
