import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/index.js';
import { EVALUATOR_OPERATORS } from '../../src/kernel/json-logic/index.js';
import { ALLOWED_OPERATORS, compileRule, EXCLUDED_OPERATORS } from '../../src/kernel/rules.js';
import { conformanceDir } from '../conformance-path.js';
import { jsonClose, operatorsOf } from './jsonlogic-helpers.js';

type Case = [rule: JsonValue, data: unknown, expected: unknown];

const entries: unknown[] = JSON.parse(
  readFileSync(conformanceDir('jsonlogic-official', 'tests.json'), 'utf8'),
);
const cases = entries.filter((entry): entry is Case => Array.isArray(entry));
const allowed = new Set(ALLOWED_OPERATORS);
const runnable = cases.filter(([rule]) => [...operatorsOf(rule)].every((op) => allowed.has(op)));

describe('jsonlogic.com tests.json through the closed-operator engine', () => {
  it('has 277 cases and runs every one (every official operator is allowed)', () => {
    expect(cases).toHaveLength(277);
    expect(runnable).toHaveLength(277);
  });

  it('implements exactly the allowed operators, and none of the excluded ones', () => {
    expect([...EVALUATOR_OPERATORS].sort()).toEqual([...ALLOWED_OPERATORS].sort());
    expect(EVALUATOR_OPERATORS.filter((op) => EXCLUDED_OPERATORS.includes(op))).toEqual([]);
  });

  it('excludes none of the operators the official suite uses', () => {
    const used = new Set(cases.flatMap(([rule]) => [...operatorsOf(rule)]));
    expect(EXCLUDED_OPERATORS).toEqual([
      'get',
      'keys',
      'pipe',
      'eachKey',
      'every',
      'not',
      'length',
      'method',
      'log',
    ]);
    expect(EXCLUDED_OPERATORS.filter((op) => used.has(op))).toEqual([]);
  });

  runnable.forEach(([rule, data, expected], i) => {
    it(`#${i} ${JSON.stringify(rule).slice(0, 90)}`, () => {
      const actual = compileRule(rule)(data);
      expect(jsonClose(actual, expected), `got ${JSON.stringify(actual)}`).toBe(true);
    });
  });
});
