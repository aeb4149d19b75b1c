import fc from 'fast-check';
import { splitPath as referenceSplit } from 'json-logic-engine';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/index.js';
import { isBudgetExhausted, StepBudget } from '../../src/kernel/budget.js';
import { splitPath } from '../../src/kernel/json-logic/index.js';
import { compileRule } from '../../src/kernel/rules.js';
import { conditionArb, dataArb } from './jsonlogic-arbitraries.js';
import { referenceRule } from './jsonlogic-reference.js';

const RUNS = 3000;

type Outcome = { value: unknown } | { threw: unknown } | { exhausted: true };

function outcome(evaluate: () => unknown): Outcome {
  try {
    return { value: evaluate() };
  } catch (error) {
    return isBudgetExhausted(error) ? { exhausted: true } : { threw: error };
  }
}

/** Deep equality of results: numbers by Object.is (so -0 and NaN count), objects by own keys. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => same(item, b[i]))
    );
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && same((a as never)[k], (b as never)[k]))
    );
  }
  return Object.is(a, b);
}

const agree = (a: Outcome, b: Outcome) =>
  ('threw' in a && 'threw' in b) || ('value' in a && 'value' in b && same(a.value, b.value));

/**
 * Runs the reference with JavaScript's own errors typed as canonry types them: where the engine
 * hits a TypeError (`"abc".map`, `(5).includes`), canonry throws INVALID_ARGUMENTS, and a `try`
 * fallback reading the error's `type` must see the same text from both.
 */
function withTypedNativeErrors<T>(run: () => T): T {
  Object.defineProperty(Error.prototype, 'type', {
    get: () => 'Invalid Arguments',
    configurable: true,
  });
  try {
    return run();
  } finally {
    Reflect.deleteProperty(Error.prototype, 'type');
  }
}

const show = (o: Outcome) =>
  'value' in o ? JSON.stringify(o.value) : 'threw' in o ? 'throws' : 'exhausted';

describe('canonry JsonLogic against json-logic-engine (differential)', () => {
  it('gives the same value, or both throw, on generated rules and data (budget not exhausted)', () => {
    let values = 0;
    let truthy = 0;
    fc.assert(
      fc.property(conditionArb, dataArb, (generatedRule, generated) => {
        // Rules and data are always JSON (protocols are canonical; resolve parses the artifact).
        const condition = JSON.parse(JSON.stringify(generatedRule));
        const data: unknown = JSON.parse(JSON.stringify(generated));
        let rule: ReturnType<typeof compileRule>;
        try {
          rule = compileRule(condition);
        } catch {
          return; // outside the bounds (fast-check's doubles may be huge literals); not evaluated
        }
        const mine = outcome(() => rule(data, new StepBudget(1_000_000)));
        if ('exhausted' in mine) return;
        const reference = withTypedNativeErrors(() =>
          outcome(() => referenceRule(condition, 'compiled')(data)),
        );
        expect(
          agree(mine, reference),
          `${JSON.stringify(condition)} on ${JSON.stringify(data)}: canonry ${show(mine)}, engine ${show(reference)}`,
        ).toBe(true);
        if ('value' in mine) {
          values++;
          if (Array.isArray(mine.value) ? mine.value.length > 0 : mine.value) truthy++;
        }
      }),
      { numRuns: RUNS },
    );
    // The generator exercises values, not mostly errors (measured: ~65 % values, ~27 % truthy).
    expect(values).toBeGreaterThan(RUNS * 0.4);
    expect(truthy).toBeGreaterThan(RUNS * 0.1);
  });

  it('spends the same steps and reaches the same outcome every time (determinism)', () => {
    fc.assert(
      fc.property(conditionArb, dataArb, (condition, generated) => {
        const data: unknown = JSON.parse(JSON.stringify(generated));
        let rule: ReturnType<typeof compileRule>;
        try {
          rule = compileRule(condition);
        } catch {
          return;
        }
        const runs = [1, 2, 3].map(() => {
          const budget = new StepBudget(1_000_000);
          return { result: outcome(() => rule(data, budget)), used: budget.used };
        });
        for (const run of runs.slice(1)) {
          expect(run.used).toBe(runs[0]?.used);
          expect(agree(run.result, runs[0]?.result as Outcome)).toBe(true);
        }
        // Any evaluation charges at least one step, except a bare literal.
        if (condition !== null && typeof condition === 'object') {
          expect(runs[0]?.used).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reads own members of arrays, strings and objects as Object.hasOwn does', () => {
    const key = fc.oneof(
      fc.constantFrom('0', '1', '2', '01', '-0', '-1', '1e0', '1.0', ' 1', '', 'length'),
      fc.constantFrom('4294967294', '4294967295', '99999999999', '__proto__', 'toString', 'a'),
      fc.integer({ min: -2, max: 5 }),
    );
    const container = fc.oneof(
      fc.array(fc.integer(), { maxLength: 4 }),
      fc.string({ maxLength: 4 }),
      fc.dictionary(fc.constantFrom('0', '01', 'length', 'a', '-0'), fc.integer(), { maxKeys: 3 }),
    );
    fc.assert(
      fc.property(container, key, (value, k) => {
        const data = JSON.parse(JSON.stringify({ c: value }));
        for (const condition of [
          { val: ['c', k] },
          { exists: ['c', k] },
          { var: `c.${k}` },
          { missing: [`c.${k}`] },
        ] as JsonValue[]) {
          expect(compileRule(condition)(data)).toEqual(referenceRule(condition, 'compiled')(data));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('splits var paths as json-logic-engine does', () => {
    const pathText = fc.string({
      unit: fc.constantFrom('a', 'b', '.', '\\', '/', '0'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(pathText, (path) => {
        expect(splitPath(path)).toEqual(referenceSplit(path));
      }),
      { numRuns: 2000 },
    );
  });
});
