import {
  AJV_PAIRS,
  AJV_SIZE,
  COMPONENTS,
  type Coefficients,
  KEY_STEPS,
  MEASURE_OF,
  SIZE as SIZE_COST,
} from './cost.js';
import { isObject } from './equal.js';

/**
 * The measures of an instance that the cost bounds multiply (see cost.ts), summed over its
 * locations: every value, and every property name (propertyNames applies schemas to it).
 */
export const COUNT = 0; // locations
export const CHILDREN = 1; // properties and items
export const KEY_CHARS = 2; // characters of property names, at their object
export const CHARS = 3; // characters of strings and property names
export const SIZE = 4; // subtree weights (jsonWeight) of every location
export const CHARS2 = 5; // squared lengths of strings and property names
export const PAIRS = 6; // items × subtree weight, for arrays
export const MEASURES = 7;

/** The measures, and whether an own `toString` or `valueOf` key was seen (Ajv calls those). */
export interface Measures {
  readonly totals: Float64Array;
  readonly callableKeys: boolean;
  /** Steps the pass took: one per value reached, KEY_STEPS per property name listed. */
  readonly work: number;
  /** False when the pass stopped early: the bound is then above the allowance. */
  readonly complete: boolean;
}

/** The dot product of a cost vector and measures: the bound on an evaluation's steps. */
export function boundSteps(cost: Coefficients, totals: Float64Array, ajv: boolean): number {
  let steps = 0;
  const components = ajv ? COMPONENTS : 6;
  for (let i = 0; i < components; i++) {
    const measure = totals[MEASURE_OF[i]!]!;
    if (cost[i] !== 0 && measure !== 0) steps += cost[i]! * measure;
  }
  return steps;
}

/**
 * Measures `value` in one pass (then one pass back for the subtree weights). Stops, incomplete, as
 * soon as the bound of `cost` on what is measured so far passes `allowance`, or more than
 * `maxValues` values were reached: the instance is then too big for a proof, whatever the rest holds.
 */
export function measure(
  value: unknown,
  cost: Coefficients,
  allowance: number,
  maxValues = Number.POSITIVE_INFINITY,
): Measures {
  const totals = new Float64Array(MEASURES);
  const values: unknown[] = [value];
  const parents: number[] = [-1];
  const weights: number[] = [];
  let callableKeys = false;
  let keys = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    let weight = 1;
    totals[COUNT]!++;
    if (typeof v === 'string') {
      weight += v.length;
      totals[CHARS]! += v.length;
      totals[CHARS2]! += v.length * v.length;
    } else if (Array.isArray(v)) {
      totals[CHILDREN]! += v.length;
      for (const item of v) {
        values.push(item);
        parents.push(i);
      }
    } else if (isObject(v)) {
      const names = Object.keys(v);
      keys += names.length;
      for (const key of names) {
        if (key === 'toString' || key === 'valueOf') callableKeys = true;
        const chars = key.length;
        weight += 1 + chars;
        totals[CHILDREN]!++;
        totals[KEY_CHARS]! += chars;
        totals[COUNT]!++; // the name, a location of its own
        totals[CHARS]! += chars;
        totals[CHARS2]! += chars * chars;
        totals[SIZE]! += 1 + chars;
        values.push(v[key]);
        parents.push(i);
      }
    }
    weights.push(weight);
    if (values.length > maxValues)
      return { totals, callableKeys, work: values.length + keys * KEY_STEPS, complete: false };
    if ((i & 255) === 255 && boundSteps(cost, totals, true) > allowance)
      return { totals, callableKeys, work: values.length + keys * KEY_STEPS, complete: false };
  }
  // Subtree weights only matter to a bound that multiplies them (const, enum, uniqueItems).
  if (cost[SIZE_COST] === 0 && cost[AJV_SIZE] === 0 && cost[AJV_PAIRS] === 0)
    return { totals, callableKeys, work: values.length + keys * KEY_STEPS, complete: true };
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    totals[SIZE]! += weights[i]!;
    if (Array.isArray(v)) totals[PAIRS]! += v.length * weights[i]!;
    const parent = parents[i]!;
    if (parent >= 0) weights[parent]! += weights[i]!;
  }
  return { totals, callableKeys, work: values.length + keys * KEY_STEPS, complete: true };
}
