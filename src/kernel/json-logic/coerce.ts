import type { StepBudget } from '../budget.js';
import { STEP_COSTS, textSteps } from './cost.js';
import { INVALID_ARGUMENTS, NOT_A_NUMBER } from './errors.js';

/** JsonLogic truthiness: `[]` is false; everything else as in JavaScript, so `{}` is true. */
export function isTruthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

/** The text of a scalar (`String(value)`), charging the conversion of numbers and booleans. */
export function scalarText(value: unknown, budget: StepBudget): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') budget.spend(STEP_COSTS.numberText);
  return String(value);
}

/**
 * `String(value)` for JSON values, charged as it is built: arrays join their elements (null as ''),
 * objects are '[object Object]', and an object with an own `toString` member cannot be converted
 * (JavaScript throws a TypeError there; rules get INVALID_ARGUMENTS). Null once the text would pass
 * `limit` characters.
 */
export function textWithin(value: unknown, budget: StepBudget, limit: number): string | null {
  if (value === null || typeof value !== 'object') {
    const text = scalarText(value, budget);
    return text.length > limit ? null : text;
  }
  if (!Array.isArray(value)) return objectText(value);
  const state: JoinState = { pieces: [], length: 0, limit, budget };
  return joinInto(value, state) ? state.pieces.join('') : null;
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

function objectText(value: object): string {
  if (Object.hasOwn(value, 'toString')) throw INVALID_ARGUMENTS;
  return '[object Object]';
}

interface JoinState {
  readonly pieces: string[];
  length: number;
  readonly limit: number;
  readonly budget: StepBudget;
}

/** Appends the text of `array` (`Array.prototype.join`); false once past the limit. */
function joinInto(array: readonly unknown[], state: JoinState): boolean {
  state.budget.spend(1 + array.length * STEP_COSTS.listElement);
  for (let i = 0; i < array.length; i++) {
    if (i > 0 && !append(',', state)) return false;
    const item = array[i];
    if (item === null || item === undefined) continue;
    if (Array.isArray(item)) {
      if (!joinInto(item, state)) return false;
    } else {
      const piece = typeof item === 'object' ? objectText(item) : scalarText(item, state.budget);
      if (!append(piece, state)) return false;
    }
  }
  return true;
}

function append(piece: string, state: JoinState): boolean {
  state.length += piece.length;
  if (state.length > state.limit) return false;
  state.budget.spend(textSteps(piece.length));
  state.pieces.push(piece);
  return true;
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
  if (typeof value === 'string') {
    budget.spend(Math.floor(value.length / STEP_COSTS.parsedCharsPerStep));
  }
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
