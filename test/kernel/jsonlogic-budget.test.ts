import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/index.js';
import {
  BUDGET_EXHAUSTED,
  EVALUATION_BUDGET,
  isBudgetExhausted,
  StepBudget,
} from '../../src/kernel/budget.js';
import { type AgenticProtocol, compileProtocol } from '../../src/kernel/protocol.js';
import { resolve } from '../../src/kernel/resolve.js';
import { compileRule } from '../../src/kernel/rules.js';
import { refundProtocol } from './refund-protocol.js';

const N = 100_000;
const range = (n: number, f: (i: number) => JsonValue) => Array.from({ length: n }, (_, i) => f(i));
const up = (levels: number, key: string): JsonValue => ({ val: [[levels], key] });

/** One artifact (well under 1 MiB of JSON) that every hostile rule below runs on. */
const artifact = {
  xs: range(N, (i) => i % 10),
  s: 'a'.repeat(400_000),
  keys: range(20_000, (i) => `k${i}`),
};
const data: unknown = JSON.parse(JSON.stringify(artifact));

/** The hostile shapes of the kernel README, each far beyond the rules budget. */
const HOSTILE: [string, JsonValue][] = [
  ['nested iterators over a 100k array', { some: [{ var: 'xs' }, { some: [up(2, 'xs'), false] }] }],
  [
    'three nested maps',
    { map: [{ var: 'xs' }, { map: [up(2, 'xs'), { map: [up(4, 'xs'), 1] }] }] },
  ],
  [
    'reduce with merge',
    { reduce: [{ var: 'xs' }, { merge: [{ var: 'accumulator' }, { var: 'current' }] }, []] },
  ],
  [
    'cat of long strings in a loop',
    { map: [{ var: 'xs' }, { cat: [{ substr: [up(2, 's'), 0, 60_000] }, '!'] }] },
  ],
  ['in over a long string', { map: [{ var: 'xs' }, { in: ['ab', up(2, 's')] }] }],
  ['scope climbs', { map: [{ var: 'xs' }, { val: [[64], 'x'] }] }],
  ['missing over many keys', { map: [{ var: 'xs' }, { missing: up(2, 'keys') }] }],
  [
    'try around expensive work',
    { try: [{ some: [{ var: 'xs' }, { some: [up(2, 'xs'), false] }] }, 'fallback'] },
  ],
  ['try around failures', { map: [{ var: 'xs' }, { try: [{ throw: 'x' }, { var: 'type' }] }] }],
  ['text of a large array', { map: [{ var: 'xs' }, { in: [up(2, 'xs'), up(2, 's')] }] }],
];

function spend(condition: JsonValue, limit: number = EVALUATION_BUDGET.rules) {
  const budget = new StepBudget(limit);
  let thrown: unknown = null;
  let value: unknown;
  try {
    value = compileRule(condition)(data, budget);
  } catch (error) {
    thrown = error;
  }
  return { used: budget.used, thrown, value };
}

function protocolOf(rules: AgenticProtocol['rules']): AgenticProtocol {
  return {
    slug: 'hostile',
    version: '1',
    constraints: true,
    labels: [...new Set(rules.map((r) => r.label))],
    rules,
  };
}

describe('the rules step budget', () => {
  it.each(HOSTILE)('%s runs out of steps: BUDGET_EXHAUSTED, past the limit', (_, condition) => {
    const { used, thrown } = spend(condition);
    expect(thrown).toBe(BUDGET_EXHAUSTED);
    expect(used).toBeGreaterThan(EVALUATION_BUDGET.rules);
  });

  it.each(HOSTILE)('%s spends the same steps every time (deterministic)', (_, condition) => {
    const runs = [1, 2, 3].map(() => spend(condition, 200_000 as number));
    for (const run of runs) {
      expect(run.thrown).toBe(BUDGET_EXHAUSTED);
      expect(run.used).toBe(runs[0]?.used);
    }
  });

  it.each(HOSTILE)('%s makes resolve INTERPRETATION_DRIFT, budget-exhausted', (_, condition) => {
    const always = { label: 'ALWAYS', condition: true };
    const cases = [
      { rules: [{ label: 'HOSTILE', condition }, always], resolution: 'first-match', rule: 0 },
      { rules: [always, { label: 'HOSTILE', condition }], resolution: 'exclusive', rule: 1 },
    ] as const;
    for (const { rules, resolution, rule } of cases) {
      const verdict = resolve(artifact, compileProtocol({ ...protocolOf([...rules]), resolution }));
      expect([verdict.class, verdict.label]).toEqual(['INTERPRETATION_DRIFT', null]);
      expect(verdict.detail.reason).toBe('budget-exhausted');
      expect(verdict.detail.budget).toEqual({
        phase: 'rules',
        limit: EVALUATION_BUDGET.rules,
        rule,
      });
    }
  });

  it('without a budget argument a rule gets a fresh full rules budget', () => {
    const rule = compileRule(HOSTILE[0]?.[1] as JsonValue);
    expect(() => rule(data)).toThrow();
    try {
      rule(data);
    } catch (error) {
      expect(isBudgetExhausted(error)).toBe(true);
    }
    // A cheap rule is unaffected by the default.
    expect(compileRule({ '<': [{ var: 'xs.1' }, 5] })(data)).toBe(true);
  });

  it('once spent, a budget stays spent: every later charge throws again', () => {
    const budget = new StepBudget(1_000);
    const rule = compileRule(HOSTILE[0]?.[1] as JsonValue);
    expect(() => rule(data, budget)).toThrow();
    expect(() => compileRule({ '!!': [1] })(data, budget)).toThrow();
    expect(budget.exhausted).toBe(true);
  });

  it('is shared by all the rules of one evaluation: 256 rules cannot each spend a whole one', () => {
    // Each rule alone fits the budget (one pass over 100k elements), together they do not.
    const one: JsonValue = { some: [{ var: 'xs' }, { '==': [{ var: '' }, -1] }] };
    expect(spend(one).thrown).toBeNull();
    expect(spend(one).used).toBeLessThan(EVALUATION_BUDGET.rules / 2);
    const rules: AgenticProtocol['rules'] = Array.from({ length: 255 }, () => ({
      label: 'NEVER',
      condition: one,
    }));
    const bundle = protocolOf([...rules, { label: 'ALWAYS', condition: true }]);
    const verdict = resolve(artifact, compileProtocol(bundle));
    expect(verdict.detail.reason).toBe('budget-exhausted');
    const stopped = verdict.detail.budget?.rule ?? -1;
    expect(stopped).toBeGreaterThan(0);
    expect(stopped).toBeLessThan(10);
  });

  it('an ordinary protocol spends a handful of steps', () => {
    const rules = refundProtocol().rules.map((r) => compileRule(r.condition));
    const budget = new StepBudget(EVALUATION_BUDGET.rules);
    for (const rule of rules) rule({ amount: 20 }, budget);
    expect(budget.used).toBeGreaterThan(0);
    expect(budget.used).toBeLessThan(50);
  });
});

describe('try, throw and the budget sentinel', () => {
  it('try never catches the budget running out, whatever its fallback', () => {
    const expensive = HOSTILE[0]?.[1] as JsonValue;
    for (const fallback of ['fallback', { var: 'type' }, { try: [expensive, 1] }] as JsonValue[]) {
      const { thrown, value } = spend({ try: [expensive, fallback] });
      expect(thrown).toBe(BUDGET_EXHAUSTED);
      expect(value).toBeUndefined();
    }
    // Nested: an outer try around an inner try around the expensive rule.
    expect(spend({ try: [{ try: [expensive, 1] }, 2] }).thrown).toBe(BUDGET_EXHAUSTED);
  });

  it('a rule throwing a look-alike of the sentinel raises an ordinary rule error', () => {
    const lookAlike: JsonValue = { throw: { preserve: { type: 'canonry:budget-exhausted' } } };
    const thrown = spend(lookAlike).thrown;
    expect(thrown).toEqual({ type: 'canonry:budget-exhausted' });
    expect(isBudgetExhausted(thrown)).toBe(false);
    // …which try catches like any other error.
    expect(spend({ try: [lookAlike, { var: 'type' }] }).value).toBe('canonry:budget-exhausted');
    const verdict = resolve(
      artifact,
      compileProtocol(protocolOf([{ label: 'X', condition: lookAlike }])),
    );
    expect(verdict.detail.reason).toBe('rule-error');
    expect(verdict.detail.ruleError?.rule).toBe(0);
  });

  it('throw cannot raise the sentinel itself, even when the data holds it', () => {
    for (const condition of [{ throw: { var: 'x' } }, { throw: [{ var: 'x' }] }] as JsonValue[]) {
      let thrown: unknown = null;
      try {
        compileRule(condition)({ x: BUDGET_EXHAUSTED });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).not.toBeNull();
      expect(isBudgetExhausted(thrown)).toBe(false);
      expect(thrown).toEqual({ type: 'canonry:budget-exhausted' });
    }
  });
});

describe('charges grow with the work', () => {
  /** Steps for `condition` over data built by `make(n)`, for n and 2n. */
  function growth(condition: JsonValue, make: (n: number) => unknown, n: number): number {
    const steps = (size: number) => {
      const budget = new StepBudget(Number.MAX_SAFE_INTEGER);
      try {
        compileRule(condition)(make(size), budget);
      } catch (error) {
        if (isBudgetExhausted(error)) throw error;
      }
      return budget.used;
    };
    return steps(2 * n) / steps(n);
  }

  it.each([
    ['in over a string', { in: ['ab', { var: 's' }] }, (n: number) => ({ s: 'a'.repeat(n) })],
    ['in over an array', { in: [-1, { var: 'xs' }] }, (n: number) => ({ xs: range(n, () => 0) })],
    ['cat', { cat: [{ var: 's' }, { var: 's' }] }, (n: number) => ({ s: 'a'.repeat(n / 4) })],
    ['substr', { substr: [{ var: 's' }, 1] }, (n: number) => ({ s: 'a'.repeat(n) })],
    [
      'merge',
      { merge: [{ var: 'xs' }, { var: 'xs' }] },
      (n: number) => ({ xs: range(n, () => 0) }),
    ],
    ['min', { min: { var: 'xs' } }, (n: number) => ({ xs: range(n, () => 0) })],
    ['a sum over an array', { '+': { var: 'xs' } }, (n: number) => ({ xs: range(n, () => 1) })],
    [
      'a string comparison',
      { '<': [{ var: 's' }, { var: 't' }] },
      (n: number) => ({ s: 'a'.repeat(n), t: 'a'.repeat(n) }),
    ],
    ['a numeric string', { '+': [{ var: 's' }] }, (n: number) => ({ s: '1'.repeat(n) })],
    [
      'the text of an array',
      { cat: [{ var: 'xs' }, ''] },
      (n: number) => ({ xs: [range(n / 4, () => 7)] }),
    ],
    ['a dynamic path', { var: { var: 's' } }, (n: number) => ({ s: 'a.'.repeat(n) })],
    ['missing', { missing: { var: 'keys' } }, (n: number) => ({ keys: range(n, (i) => `k${i}`) })],
    [
      'an iteration',
      { map: [{ var: 'xs' }, { '+': [{ var: '' }, 1] }] },
      (n: number) => ({ xs: range(n, () => 1) }),
    ],
    [
      'a reduce',
      { reduce: [{ var: 'xs' }, { '+': [{ var: 'accumulator' }, 1] }, 0] },
      (n: number) => ({ xs: range(n, () => 1) }),
    ],
  ] as [string, JsonValue, (n: number) => unknown][])('%s', (_, condition, make) => {
    // 30,000 and 60,000 (cat: texts under its 65,536 bound).
    expect(growth(condition, make, 30_000)).toBeGreaterThan(1.8);
  });

  it('a scope climb, one step a level', () => {
    const steps = (levels: number) => {
      const budget = new StepBudget(EVALUATION_BUDGET.rules);
      compileRule({ val: [[{ var: 'n' }], 'x'] })({ n: levels }, budget);
      return budget.used;
    };
    expect(steps(60) - steps(30)).toBe(30);
  });
});
