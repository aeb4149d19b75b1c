import type { StepBudget } from '../budget.js';
import { textSteps } from './cost.js';
import { INVALID_ARGUMENTS, NOT_A_NUMBER } from './errors.js';

/** JsonLogic truthiness: `[]` is false; everything else as in JavaScript, so `{}` is true. */
export function isTruthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

/**
 * `String(value)` for JSON values, charged as it is built: arrays join their elements (null as ''),
 * objects are '[object Object]', and an object with an own `toString` member cannot be converted
 * (JavaScript throws a TypeError there; rules get INVALID_ARGUMENTS). Null once the text would pass
 * `limit` characters.
 */
export function textWithin(value: unknown, budget: StepBudget, limit: number): string | null {
  if (typeof value === 'string') return value.length > limit ? null : value;
  if (value === null || typeof value !== 'object') return String(value);
  if (!Array.isArray(value)) return objectText(value);
  const state = { text: '', limit, budget };
  try {
    joinInto(value, state);
  } catch (error) {
    if (error === OVERFLOW) return null;
    throw error;
  }
  return state.text;
}

/** {@link textWithin} that throws INVALID_ARGUMENTS past `limit`. */
export function toText(
  value: unknown,
  budget: StepBudget,
  limit = Number.POSITIVE_INFINITY,
): string {
  const text = textWithin(value, budget, limit);
  if (text === null) throw INVALID_ARGUMENTS;
  return text;
}

const OVERFLOW = Symbol('overflow');

function objectText(value: object): string {
  if (Object.hasOwn(value, 'toString')) throw INVALID_ARGUMENTS;
  return '[object Object]';
}

interface JoinState {
  text: string;
  readonly limit: number;
  readonly budget: StepBudget;
}

function joinInto(array: readonly unknown[], state: JoinState): void {
  state.budget.spend(1 + array.length);
  for (let i = 0; i < array.length; i++) {
    if (i > 0) append(',', state);
    const item = array[i];
    if (item === null || item === undefined) continue;
    if (Array.isArray(item)) joinInto(item, state);
    else append(typeof item === 'object' ? objectText(item) : String(item), state);
  }
}

function append(piece: string, state: JoinState): void {
  if (state.text.length + piece.length > state.limit) throw OVERFLOW;
  state.budget.spend(textSteps(piece.length));
  state.text += piece;
}

/** ToPrimitive for JSON values: arrays become their joined text, objects '[object Object]'. */
export function toPrimitive(value: unknown, budget: StepBudget): unknown {
  return value !== null && typeof value === 'object' ? toText(value, budget) : value;
}

/**
 * json-logic-engine's `precoerceNumber`: NaN and arrays/objects fail as NaN, anything else passes
 * unchanged (the caller then applies unary `+`).
 */
export function precoerce(value: unknown): unknown {
  if (value !== null && typeof value === 'object') throw NOT_A_NUMBER;
  if (Number.isNaN(value)) throw NOT_A_NUMBER;
  return value;
}

/** Unary `+` on a primitive, charging the parse of a string. */
export function plus(value: unknown, budget: StepBudget): number {
  if (typeof value === 'string') budget.spend(textSteps(value.length));
  return +(value as number);
}

/** `+precoerce(value)`: the number an arithmetic operand stands for (may be NaN for strings). */
export function operandNumber(value: unknown, budget: StepBudget): number {
  return plus(precoerce(value), budget);
}

/** Throws NOT_A_NUMBER for NaN, returns any other number. */
export function notNaN(value: number): number {
  if (Number.isNaN(value)) throw NOT_A_NUMBER;
  return value;
}
