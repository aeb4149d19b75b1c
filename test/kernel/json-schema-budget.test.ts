import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError, canonicalize, type JsonObject } from '../../src/core/index.js';
import { EVALUATION_BUDGET, StepBudget } from '../../src/kernel/budget.js';
import { compileConstraints, MAX_CONSTRAINT_ERRORS } from '../../src/kernel/constraints.js';
import {
  ajvUnsafeFeatures,
  boundSteps,
  compileSchema,
  measure,
} from '../../src/kernel/json-schema/index.js';
import { compileProtocol, type ProtocolIssue } from '../../src/kernel/protocol.js';
import { resolve } from '../../src/kernel/resolve.js';
import { commonAssertions, jsonValues, type Pools, schemas } from './json-schema-arbitraries.js';

/** A budget that remembers its last charge, to check that nothing is spent past it. */
class RecordingBudget extends StepBudget {
  last = 0;
  override spend(steps: number): void {
    this.last = steps;
    super.spend(steps);
  }
  override charge(steps: number): boolean {
    this.last = steps;
    return super.charge(steps);
  }
}

const LIMIT = EVALUATION_BUDGET.constraints;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

function protocol(constraints: unknown, salt = '') {
  return {
    slug: `budget.test${salt}`,
    version: '1',
    constraints,
    labels: ['OK'],
    rules: [{ label: 'OK', condition: true }],
  };
}

/** A binary anyOf tree whose last leaf accepts integers: every other leaf fails first. */
function anyOfTree(depth: number, last = true): JsonObject {
  if (depth === 0) return last ? { type: 'integer' } : { type: 'string' };
  return { anyOf: [anyOfTree(depth - 1, false), anyOfTree(depth - 1, last)] };
}

/** `$defs` d0…dN, each applying the next twice: 2^N schemas at one location. */
function fanOut(levels: number): JsonObject {
  const $defs: JsonObject = {};
  for (let i = 0; i < levels; i++) {
    $defs[`d${i}`] = {
      // The first branch evaluates the next level in full, then fails: both branches always run.
      anyOf: [{ allOf: [{ $ref: `#/$defs/d${i + 1}` }, false] }, { $ref: `#/$defs/d${i + 1}` }],
    };
  }
  $defs[`d${levels}`] = { type: 'integer' };
  return { $defs, items: { $ref: '#/$defs/d0' } };
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

interface Hostile {
  name: string;
  constraints: JsonObject;
  artifact: unknown;
  /** The verdict reason expected from resolve. */
  reason: 'budget-exhausted' | 'constraints' | 'matched';
}

const HOSTILE: Hostile[] = [
  {
    name: 'a catastrophic pattern on a long string',
    constraints: { pattern: '^(a+)+$' },
    artifact: `${'a'.repeat(100_000)}b`,
    reason: 'budget-exhausted',
  },
  {
    name: 'a catastrophic pattern on a short string',
    constraints: { pattern: '^(a+)+$' },
    artifact: `${'a'.repeat(40)}b`,
    reason: 'constraints',
  },
  {
    name: 'nested anyOf over many items',
    constraints: { items: anyOfTree(9) },
    artifact: range(5_000),
    reason: 'budget-exhausted',
  },
  {
    name: '$ref/anyOf fan-out under the static limit, over many items',
    constraints: fanOut(12),
    artifact: range(500),
    reason: 'budget-exhausted',
  },
  {
    name: 'branching recursion over a deep instance',
    constraints: { oneOf: [{ items: { $ref: '#' } }, { items: { $ref: '#' }, minItems: 0 }] },
    artifact: nested(40),
    reason: 'budget-exhausted',
  },
  {
    name: 'a huge enum of objects',
    constraints: { items: { enum: range(1_300).map((i) => ({ id: i, tag: 'member' })) } },
    artifact: range(40_000).map(() => ({ id: 1_299, tag: 'member' })),
    reason: 'budget-exhausted',
  },
  {
    name: 'uniqueItems over a large array of objects',
    constraints: { uniqueItems: true },
    artifact: range(20_000).map((i) => ({ a: i, b: [i, 'x'], c: { d: null } })),
    reason: 'budget-exhausted',
  },
  {
    name: 'contains over a large array of objects, none matching',
    constraints: { contains: { required: ['a'], properties: { a: { const: 'x' } } } },
    artifact: range(50_000).map((i) => ({ a: `y${i}`, b: i })),
    reason: 'budget-exhausted',
  },
  {
    name: 'many patternProperties over many properties',
    constraints: {
      patternProperties: Object.fromEntries(range(50).map((i) => [`^(x|y)*${i}$`, true])),
    },
    artifact: Object.fromEntries(range(5_000).map((i) => [`${'xy'.repeat(8)}k${i}`, i])),
    reason: 'budget-exhausted',
  },
  {
    name: 'a small valid artifact',
    constraints: { items: anyOfTree(9) },
    artifact: range(3),
    reason: 'matched',
  },
];

describe('hostile constraints', () => {
  for (const c of HOSTILE) {
    it(`${c.name}: ${c.reason}, the same every time`, () => {
      const compiled = compileProtocol(protocol(c.constraints));
      const verdicts = range(3).map(() => resolve(c.artifact, compiled));
      expect(verdicts[0]?.detail.reason).toBe(c.reason);
      expect(verdicts[0]?.class).toBe(c.reason === 'matched' ? 'CONFORMANT' : 'INVALID_REQUEST');
      if (c.reason === 'budget-exhausted')
        expect(verdicts[0]?.detail.budget).toEqual({ phase: 'constraints', limit: LIMIT });
      for (const verdict of verdicts) expect(verdict).toEqual(verdicts[0]);
      // A fresh compile (another hash) decides the same.
      expect(resolve(c.artifact, compileProtocol(protocol(c.constraints, '.again')))).toMatchObject(
        { class: verdicts[0]?.class, detail: verdicts[0]?.detail },
      );
      // Nothing is spent past the charge that ran out, and the steps are the same every time.
      const check = compileConstraints(c.constraints);
      const data = JSON.parse(canonicalize(c.artifact));
      const budgets = range(2).map(() => new RecordingBudget(LIMIT));
      for (const budget of budgets) {
        const result = check(data, budget);
        expect(result.exhausted === true).toBe(c.reason === 'budget-exhausted');
        expect(budget.used - budget.last).toBeLessThanOrEqual(LIMIT);
      }
      expect(budgets[0]?.used).toBe(budgets[1]?.used);
    });
  }

  it('refuses in-place fan-out beyond the budget at compilation, naming the schema and bound', () => {
    let thrown: unknown;
    try {
      compileProtocol(protocol(fanOut(20)));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CanonryError);
    expect((thrown as CanonryError).code).toBe('INVALID_PROTOCOL');
    const issues = ((thrown as CanonryError).details?.issues ?? []) as ProtocolIssue[];
    const issue = issues[0];
    // The innermost definition whose fan-out alone passes the budget.
    expect(issue?.path).toMatch(/^\/constraints\/\$defs\/d\d+$/);
    expect(issue?.message).toMatch(new RegExp(`more than the evaluation budget of ${LIMIT}`));
    const blamed = Number(issue?.path.slice('/constraints/$defs/d'.length));
    // Its inner neighbour fits; it does not.
    const inner = { ...fanOut(20), items: { $ref: `#/$defs/d${blamed + 1}` } };
    expect(() => compileConstraints(inner)).not.toThrow();
    // The same shape, 1 KB of JSON: refused, never 2^20 evaluations.
    expect(JSON.stringify(fanOut(20)).length).toBeLessThan(2_000);
  });
});

describe('bounded errors', () => {
  it('returns at most 8 errors and counts the rest', () => {
    const branches = range(20).map((i) => ({ required: [`k${i}`] }));
    const check = compileConstraints({ anyOf: branches });
    const result = check({});
    expect(result.engine).toBe('ajv');
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(MAX_CONSTRAINT_ERRORS);
    expect(result.omittedErrors).toBeGreaterThan(0);
    expect(result.errors.length + (result.omittedErrors ?? 0)).toBe(21); // 20 branches + anyOf
    // The interpreter reports the first error only.
    const interpreted = compileConstraints({ anyOf: branches, unevaluatedProperties: false });
    expect(interpreted({}).errors).toHaveLength(1);
  });
});

describe('routing between Ajv and the interpreter', () => {
  it('sends a value to Ajv only when the bound proves the interpreter could not exhaust the budget', () => {
    const schema: JsonObject = {
      type: 'array',
      items: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
    };
    const check = compileConstraints(schema);
    expect(check(range(10).map((a) => ({ a }))).engine).toBe('ajv');
    const large = range(30_000).map((a) => ({ a }));
    const routed = check(large);
    expect(routed.engine).toBe('canonry');
    expect(routed.exhausted).toBe(true);
    // The same value on a partly spent budget goes to the interpreter, which decides alike.
    const small = range(10).map((a) => ({ a }));
    const spent = new StepBudget(LIMIT);
    spent.charge(LIMIT - 50);
    expect(check(small, spent)).toMatchObject({ engine: 'canonry', exhausted: true });
  });

  it('the interpreter never spends more than the static bound (fast-check)', () => {
    const pools: Pools = {
      keys: ['a', 'b', 'c', 'toString'],
      numbers: [-2, 0, 0.5, 1, 2, 3, 1e15, 2 ** 60],
      strings: ['', 'a', 'ab', 'é', '😀', 'a😀', 'c\n', 'http://a.b/c', 'x'.repeat(40)],
      patterns: ['^a', 'b', '^[a-c]*$', '\\d', '^.{2}$', '^\\p{L}+$', '(a|b)*c'],
      width: 4,
    };
    const json = jsonValues(pools);
    const keys = fc.constantFrom(...pools.keys);
    const assertions = [
      ...commonAssertions(pools, json),
      fc.record({ multipleOf: fc.constantFrom(1, 2, 0.5, 0.01) }),
      fc.record({ format: fc.constantFrom('url', 'email', 'regex', 'date-time', 'int32') }),
      fc.record({
        dependentRequired: fc.dictionary(keys, fc.subarray([...pools.keys]), { maxKeys: 2 }),
      }),
    ];
    const schema = schemas(pools, assertions, (sub) => [
      fc.record({ propertyNames: sub }),
      fc.record({ dependentSchemas: fc.dictionary(keys, sub, { maxKeys: 2 }) }),
      fc.record({ $ref: fc.constantFrom('#', '#/$defs/d') }),
    ]);
    const root = fc
      .tuple(schema, schema)
      .map(([body, d]) =>
        typeof body === 'boolean' ? body : { ...(body as object), $defs: { d } },
      );
    let checked = 0;
    let routedToAjv = 0;
    fc.assert(
      fc.property(root, fc.array(json, { minLength: 3, maxLength: 6 }), (generated, instances) => {
        const plain = JSON.parse(JSON.stringify(generated));
        let validator: ReturnType<typeof compileSchema>;
        try {
          validator = compileSchema(plain, { formatAssertion: true });
        } catch {
          return; // a `$ref` cycle that never moves into the instance: refused, nothing to bound
        }
        const bound = validator.perLocationBound();
        if (ajvUnsafeFeatures(plain).length > 0 || bound === null) return;
        const check = compileConstraints(plain, { formatAssertion: true });
        for (const raw of instances) {
          const value = JSON.parse(canonicalize(raw));
          const budget = new StepBudget(Number.POSITIVE_INFINITY);
          const { valid } = validator.validate(value, budget);
          const measures = measure(value, bound, Number.POSITIVE_INFINITY);
          const steps = boundSteps(bound, measures.totals, false);
          if (Number.isFinite(steps)) {
            checked++;
            expect(
              budget.used,
              `${JSON.stringify(plain)} on ${canonicalize(value)}`,
            ).toBeLessThanOrEqual(steps);
          }
          // Routed either way, the verdict is the interpreter's.
          const routed = check(value);
          if (routed.engine === 'ajv') routedToAjv++;
          expect(routed.valid).toBe(valid);
        }
      }),
      { numRuns: 1_500, seed: 5 },
    );
    expect(checked).toBeGreaterThan(3_000);
    expect(routedToAjv).toBeGreaterThan(checked / 2);
  });
});
