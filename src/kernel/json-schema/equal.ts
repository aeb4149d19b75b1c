import type { StepBudget } from '../budget.js';
import { CHARS_PER_STEP, CHILD_STEPS, KEY_STEPS, WALK_VALUE_STEPS } from './cost.js';

/**
 * JSON equality as JSON Schema defines it: numbers by value (1 equals 1.0), objects by their own
 * keys regardless of order, arrays item by item. Iterative, so deep instances cannot overflow; each
 * charges its work to a step budget (values, keys, characters) before doing it.
 */

/** Whether a value is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Steps to hash or compare a string of this length. */
export function charSteps(length: number): number {
  return Math.ceil(length / CHARS_PER_STEP);
}

/**
 * The weight of a JSON value: 1 per value, plus its characters, plus 1 and the characters of each
 * property name. What {@link jsonEqual} and {@link jsonKey} may spend on it is at most this.
 */
export function jsonWeight(value: unknown): number {
  let weight = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    weight++;
    if (typeof next === 'string') weight += next.length;
    else if (Array.isArray(next)) for (const item of next) pending.push(item);
    else if (isObject(next)) {
      for (const key of Object.keys(next)) {
        weight += 1 + key.length;
        pending.push(next[key]);
      }
    }
  }
  return weight;
}

/** Whether two JSON values are equal; charges `budget` for each pair, key and character compared. */
export function jsonEqual(a: unknown, b: unknown, budget: StepBudget): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    budget.spend(WALK_VALUE_STEPS);
    if (typeof x === 'string' && typeof y === 'string' && x.length === y.length)
      budget.spend(charSteps(x.length));
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const keys = Object.keys(x);
    const other = Object.keys(y);
    budget.spend((keys.length + other.length) * KEY_STEPS);
    if (keys.length !== other.length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pending.push((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]);
    }
  }
  return true;
}

const INDEX = /^(?:0|[1-9]\d{0,9})$/;

/** Whether a property name is an array index, which V8 lists first, in numeric order. */
function isIndex(key: string): boolean {
  return INDEX.test(key) && Number(key) < 4_294_967_295;
}

function compareKeys(a: string, b: string): number {
  const ia = a.charCodeAt(0) <= 0x39 && isIndex(a); // digits sort before letters: a cheap pre-test
  const ib = b.charCodeAt(0) <= 0x39 && isIndex(b);
  if (ia && ib) return Number(a) - Number(b);
  if (ia !== ib) return ia ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Puts property names in one order for any insertion order: array indices numerically, then the
 * rest by UTF-16 code units. That is the order `Object.keys` already gives for an object parsed from
 * canonical JSON (RFC 8785 sorts keys so), which is what the kernel evaluates: checking it costs
 * one comparison per key; sorting, needed only for other objects, is charged as such.
 */
function inKeyOrder(keys: string[], budget: StepBudget): void {
  let longest = 0;
  let total = 0;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    total += key.length;
    if (key.length > longest) longest = key.length;
    // A comparison reads at most the shorter name: all of them together, at most every character.
    if (sorted && i > 0 && compareKeys(keys[i - 1]!, key) > 0) sorted = false;
  }
  budget.spend(keys.length * CHILD_STEPS + charSteps(total));
  if (sorted) return;
  budget.spend(keys.length * Math.ceil(Math.log2(keys.length + 1)) * (1 + charSteps(longest)));
  keys.sort(compareKeys);
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

/**
 * A string that is equal for two JSON values exactly when {@link jsonEqual} holds, charging
 * `budget` as it goes. With `cap`, stops and returns null as soon as the key would pass `cap`
 * characters (it then equals no key of that length or less), so its cost is bounded by `cap`
 * and the keys of the objects it opens.
 */
export function jsonKey(value: unknown, budget: StepBudget, cap = Infinity): string | null {
  let out = '';
  const pending: unknown[] = [value];
  const emit = (text: string): boolean => {
    budget.spend(charSteps(text.length));
    if (out.length + text.length > cap) return false;
    out += text;
    return true;
  };
  while (pending.length > 0) {
    const next = pending.pop();
    budget.spend(WALK_VALUE_STEPS);
    let text: string | undefined;
    if (next instanceof Text) text = next.text;
    else if (typeof next === 'string') {
      if (out.length + next.length > cap) return null;
      text = JSON.stringify(next);
    } else if (typeof next === 'number')
      text = String(next); // String(-0) is '0'
    else if (typeof next === 'boolean' || next === null) text = String(next);
    else if (Array.isArray(next)) {
      budget.spend(next.length * CHILD_STEPS);
      // Each item takes at least 2 characters (`0,`): too many to fit, no need to go on.
      if (out.length + 2 * next.length - 1 > cap) return null;
      pending.push(CLOSE_ARRAY);
      for (let i = next.length - 1; i >= 0; i--) {
        pending.push(next[i]);
        if (i > 0) pending.push(COMMA);
      }
      pending.push(OPEN_ARRAY);
    } else if (typeof next === 'object') {
      const keys = Object.keys(next);
      budget.spend(keys.length * KEY_STEPS);
      // Each property takes at least 4 characters (`"":0`): too many to fit, no need to sort them.
      if (out.length + 4 * keys.length > cap) return null;
      inKeyOrder(keys, budget);
      pending.push(CLOSE_OBJECT);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        pending.push((next as Record<string, unknown>)[key]);
        pending.push(new Text(`${JSON.stringify(key)}:`));
        if (i > 0) pending.push(COMMA);
      }
      pending.push(OPEN_OBJECT);
    } else text = `?${typeof next}`;
    if (text !== undefined && !emit(text)) return null;
  }
  return out;
}
