import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CanonryError, type JsonValue } from '../../src/core/index.js';
import { ALLOWED_OPERATORS, compileRule } from '../../src/kernel/rules.js';
import { conformanceDir } from '../conformance-path.js';
import { jsonClose, operatorsOf } from './jsonlogic-helpers.js';

interface Case {
  description: string;
  rule: JsonValue;
  data?: unknown;
  result?: unknown;
  error?: unknown;
}

type Outcome = 'passed' | 'failed' | 'skipped' | 'rejected';

/** Measured with canonry's evaluator (of 1,138; the 20 others use `{}`, which rules refuse); never lower it. */
const PASS_FLOOR = 1118;

const suites = conformanceDir('jsonlogic-community', 'suites');
const files: string[] = JSON.parse(readFileSync(`${suites}/index.json`, 'utf8'));
const allowed = new Set(ALLOWED_OPERATORS);

function run(c: Case): Outcome {
  if (![...operatorsOf(c.rule)].every((op) => allowed.has(op))) return 'skipped';
  let evaluate: (data: unknown) => unknown;
  try {
    evaluate = compileRule(c.rule);
  } catch (error) {
    if (error instanceof CanonryError && error.code === 'INVALID_PROTOCOL') return 'rejected';
    throw error;
  }
  const data = Object.hasOwn(c, 'data') ? c.data : {};
  try {
    const actual = evaluate(data);
    return !Object.hasOwn(c, 'error') && jsonClose(actual, c.result) ? 'passed' : 'failed';
  } catch {
    return Object.hasOwn(c, 'error') ? 'passed' : 'failed';
  }
}

const results = files.map((file) => {
  const entries: unknown[] = JSON.parse(readFileSync(`${suites}/${file}`, 'utf8'));
  const cases = entries.filter((e): e is Case => e !== null && typeof e === 'object');
  return { file, cases, outcomes: cases.map(run) };
});
const all = results.flatMap((r) => r.outcomes);
const count = (o: Outcome, list: Outcome[] = all) => list.filter((x) => x === o).length;

describe('json-logic compat-tables community suites', () => {
  it('reports the pass count', () => {
    const skipped = count('skipped');
    const ran = all.length - skipped;
    console.log(
      `jsonlogic community: passed ${count('passed')}/${ran} (skipped ${skipped} for excluded operators)`,
    );
    console.log(
      `jsonlogic community: ${count('rejected')} rules rejected by the validator, ${count('failed')} failed`,
    );
    for (const { file, cases, outcomes } of results) {
      outcomes.forEach((o, i) => {
        if (o === 'failed') console.log(`  failed: ${file}: ${cases[i]?.description}`);
      });
    }
    expect(all).toHaveLength(1138);
    expect(count('passed')).toBeGreaterThanOrEqual(PASS_FLOOR);
    // No community case needs an excluded operator; 20 use `{}` as a literal, which rules refuse.
    expect(skipped).toBe(0);
    expect(count('rejected')).toBe(20);
  });

  it('passes compatible.json (tests.json in object form) completely', () => {
    const compatible = results.find((r) => r.file === 'compatible.json');
    expect(compatible?.outcomes).toHaveLength(278);
    expect(count('passed', compatible?.outcomes)).toBe(278);
  });
});
