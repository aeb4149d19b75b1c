import { describe, expect, it } from 'vitest';
import { CanonryError, contentHash, type JsonValue } from '../../src/core/index.js';
import {
  type AgenticProtocol,
  type CompiledProtocol,
  compileProtocol,
} from '../../src/kernel/protocol.js';
import { resolve } from '../../src/kernel/resolve.js';
import { compileRule } from '../../src/kernel/rules.js';
import type { Verdict } from '../../src/kernel/verdict.js';
import { refundProtocol, reverseKeys } from './refund-protocol.js';

const refund = compileProtocol(refundProtocol());

function protocol(
  rules: AgenticProtocol['rules'],
  extra: Partial<AgenticProtocol> = {},
): CompiledProtocol {
  const labels = [...new Set(rules.map((r) => r.label))];
  return compileProtocol({
    slug: 'test',
    version: '1',
    constraints: true,
    labels,
    rules,
    ...extra,
  });
}

const outcome = (v: Verdict) => [v.class, v.label];

describe('resolve: Appendix A', () => {
  it.each([
    [20, 'AUTO_APPROVE'],
    [50, 'AUTO_APPROVE'],
    [-3, 'AUTO_APPROVE'],
    [50.01, 'MANAGER_REVIEW'],
    [1000, 'MANAGER_REVIEW'],
    [1000.5, 'BLOCK'],
    [5000, 'BLOCK'],
  ])('amount %s resolves to %s', (amount, label) => {
    const verdict = resolve({ amount }, refund);
    expect(outcome(verdict)).toEqual(['CONFORMANT', label]);
    expect(verdict.protocolHash).toBe(refund.hash);
    expect(verdict.artifactHash).toBe(contentHash({ amount }));
    expect(verdict.detail.reason).toBe('matched');
  });

  it.each([
    ['an undeclared field', { amount: 20, extra: 1 }],
    ['a string amount', { amount: '20' }],
    ['a missing amount', {}],
    ['an array', [{ amount: 20 }]],
    ['a number', 20],
    ['null', null],
    ['a string', 'amount: 20'],
  ])('%s is INVALID_REQUEST', (_, artifact) => {
    const verdict = resolve(artifact, refund);
    expect(outcome(verdict)).toEqual(['INVALID_REQUEST', null]);
    expect(verdict.detail.reason).toBe('constraints');
    expect(verdict.detail.constraintErrors?.length).toBeGreaterThan(0);
    expect(verdict.artifactHash).toBe(contentHash(artifact));
  });

  it.each([
    ['undefined', undefined],
    ['a function', () => 20],
    ['NaN', { amount: Number.NaN }],
    ['Infinity', { amount: Number.POSITIVE_INFINITY }],
    ['a lone surrogate', { amount: 20, note: '\ud800' }],
    ['a bigint', { amount: 20n }],
    ['a Date', { amount: new Date(0) }],
    ['a Map', new Map([['amount', 20]])],
  ])(
    'an artifact that is not JSON (%s) is INVALID_REQUEST with no artifact hash',
    (_, artifact) => {
      const verdict = resolve(artifact, refund);
      expect(outcome(verdict)).toEqual(['INVALID_REQUEST', null]);
      expect(verdict.artifactHash).toBeNull();
      expect(verdict.detail).toEqual({ reason: 'not-json' });
    },
  );

  it('refuses cyclic and absurdly deep artifacts as not JSON', () => {
    const cyclic: Record<string, unknown> = { amount: 20 };
    cyclic.self = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const artifact of [cyclic, deep])
      expect(resolve(artifact, refund).artifactHash).toBeNull();
  });

  it('never calls getters twice or sees undefined members: only the canonical JSON counts', () => {
    let reads = 0;
    const artifact = {
      get amount() {
        reads++;
        return reads === 1 ? 20 : 5000;
      },
    };
    expect(outcome(resolve(artifact, refund))).toEqual(['CONFORMANT', 'AUTO_APPROVE']);
    expect(outcome(resolve({ amount: 20, extra: undefined }, refund))).toEqual([
      'CONFORMANT',
      'AUTO_APPROVE',
    ]);
    expect(resolve({ amount: -0 }, refund)).toEqual(resolve({ amount: 0 }, refund));
  });
});

describe('resolve: rule semantics', () => {
  it('is INTERPRETATION_DRIFT when no rule matches (no catch-all)', () => {
    const p = protocol([{ label: 'SMALL', condition: { '<': [{ var: 'amount' }, 10] } }]);
    const verdict = resolve({ amount: 20 }, p);
    expect(outcome(verdict)).toEqual(['INTERPRETATION_DRIFT', null]);
    expect(verdict.detail.reason).toBe('no-match');
  });

  it('first-match: the first truthy rule wins, in order', () => {
    const p = protocol([
      { label: 'A', condition: { '>': [{ var: 'x' }, 1] } },
      { label: 'B', condition: { '>': [{ var: 'x' }, 0] } },
    ]);
    expect(outcome(resolve({ x: 2 }, p))).toEqual(['CONFORMANT', 'A']);
    expect(outcome(resolve({ x: 1 }, p))).toEqual(['CONFORMANT', 'B']);
  });

  it('exclusive: two distinct matching labels are ambiguous; the same label twice is fine', () => {
    const rules = [
      { label: 'A', condition: { '>': [{ var: 'x' }, 1] } },
      { label: 'B', condition: { '>': [{ var: 'x' }, 5] } },
      { label: 'A', condition: { '>': [{ var: 'x' }, 0] } },
    ];
    const p = protocol(rules, { resolution: 'exclusive' });
    const ambiguous = resolve({ x: 10 }, p);
    expect(outcome(ambiguous)).toEqual(['INTERPRETATION_DRIFT', null]);
    expect(ambiguous.detail.reason).toBe('ambiguous');
    expect(ambiguous.detail.matched).toEqual([
      { rule: 0, label: 'A' },
      { rule: 1, label: 'B' },
      { rule: 2, label: 'A' },
    ]);
    const twice = resolve({ x: 3 }, p);
    expect(outcome(twice)).toEqual(['CONFORMANT', 'A']);
    expect(twice.detail.matched).toEqual([
      { rule: 0, label: 'A' },
      { rule: 2, label: 'A' },
    ]);
    expect(resolve({ x: 0 }, p).detail.reason).toBe('no-match');
  });

  it.each([
    ['division by zero', { '/': [1, 0] }],
    ['a non-numeric sum', { '+': ['a', { var: 'x' }] }],
    ['a comparison with an object', { '<': [{ var: 'o' }, 1] }],
    ['an explicit throw', { throw: 'nope' }],
    ['a quantifier over a missing array', { all: [{ var: 'missing' }, true] }],
    ['substr of an object', { substr: [{ var: 'o' }, 0, 1] }],
    ['substr of a missing field', { substr: [{ var: 'missing' }, 0, 1] }],
  ])('a rule that errors (%s) is drift even when a later rule matches', (_, condition) => {
    const rules = [
      { label: 'ERR', condition },
      { label: 'ALWAYS', condition: true },
    ];
    for (const resolution of ['first-match', 'exclusive'] as const) {
      const verdict = resolve({ x: 1, o: { a: 1 } }, protocol(rules, { resolution }));
      expect(outcome(verdict)).toEqual(['INTERPRETATION_DRIFT', null]);
      expect(verdict.detail.reason).toBe('rule-error');
      expect(verdict.detail.ruleError?.rule).toBe(0);
    }
  });

  it('a rule that errors after the winner is never evaluated under first-match', () => {
    const rules = [
      { label: 'OK', condition: true },
      { label: 'ERR', condition: { '/': [1, 0] } },
    ];
    expect(outcome(resolve({}, protocol(rules)))).toEqual(['CONFORMANT', 'OK']);
    expect(resolve({}, protocol(rules, { resolution: 'exclusive' })).detail.reason).toBe(
      'rule-error',
    );
  });

  it('treats [] as false and {} as true, like JsonLogic', () => {
    const p = protocol([
      { label: 'LIST', condition: { var: 'list' } },
      { label: 'OBJ', condition: { var: 'obj' } },
    ]);
    expect(outcome(resolve({ list: [], obj: {} }, p))).toEqual(['CONFORMANT', 'OBJ']);
    expect(outcome(resolve({ list: [0], obj: {} }, p))).toEqual(['CONFORMANT', 'LIST']);
  });

  it('gives the same verdict and hash whatever the key order', () => {
    const p = protocol([
      { label: 'A', condition: { '==': [{ var: 'a.b' }, 1] } },
      { label: 'B', condition: true },
    ]);
    const artifact = { z: [1, { y: 2, x: 3 }], a: { c: 0, b: 1 } };
    expect(resolve(reverseKeys(artifact), p)).toEqual(resolve(artifact, p));
  });

  it('rejects a protocol that compileProtocol did not produce', () => {
    const fake = { hash: refund.hash, protocol: refund.protocol } as CompiledProtocol;
    expect(() => resolve({ amount: 20 }, fake)).toThrow(CanonryError);
  });
});

describe('rules cannot reach JavaScript prototypes', () => {
  const paths = [
    '__proto__',
    'constructor',
    'constructor.prototype',
    'constructor.name',
    '__proto__.toString',
    'toString',
    'hasOwnProperty',
    'valueOf',
  ];

  it.each(paths)('var %s is null on objects, arrays and strings', (path) => {
    for (const data of [{}, { a: 1 }, [], 'text', 5, true, null]) {
      expect(compileRule({ var: path })(data)).toBeNull();
      expect(compileRule({ var: `x.${path}` })({ x: data })).toBeNull();
      expect(compileRule({ val: path.split('.') })(data)).toBeNull();
      expect(compileRule({ val: ['x', ...path.split('.')] })({ x: data })).toBeNull();
      expect(compileRule({ exists: path.split('.') })(data)).toBe(false);
      expect(compileRule({ missing: [path] })(data)).toEqual([path]);
    }
  });

  it('dynamic keys, defaults and scope climbs do not reach prototypes either', () => {
    expect(compileRule({ var: { cat: ['__pro', 'to__'] } })({})).toBeNull();
    expect(compileRule({ var: ['constructor', 'fallback'] })({})).toBe('fallback');
    expect(compileRule({ var: { var: 'key' } })({ key: 'constructor' })).toBeNull();
    expect(compileRule({ map: [[1], { val: [[1], 'constructor'] }] })({})).toEqual([null]);
    expect(
      compileRule({ reduce: [[1], { val: ['accumulator', 'constructor'] }, 0] })({}),
    ).toBeNull();
    expect(compileRule({ try: [{ throw: 'x' }, { val: 'constructor' }] })({})).toBeNull();
    expect(compileRule({ missing_some: [1, ['toString', 'valueOf']] })({})).toEqual([
      'toString',
      'valueOf',
    ]);
  });

  it('own members named like prototype members are ordinary data', () => {
    const data = JSON.parse('{"__proto__": 5, "constructor": {"name": "mine"}}');
    expect(compileRule({ var: '__proto__' })(data)).toBe(5);
    expect(compileRule({ var: 'constructor.name' })(data)).toBe('mine');
    expect(compileRule({ exists: '__proto__' })(data)).toBe(true);
    expect(compileRule({ var: 'list.length' })({ list: [1, 2] })).toBe(2);
  });

  it('resolving such paths on hostile artifacts neither throws nor leaks', () => {
    const p = protocol([
      { label: 'LEAK', condition: { '!!': { var: 'constructor' } } },
      { label: 'LEAK', condition: { '!!': { var: '__proto__' } } },
      { label: 'LEAK', condition: { '!!': { var: 'a.constructor.name' } } },
      { label: 'SAFE', condition: true },
    ]);
    for (const artifact of [{}, { a: [] }, { a: 'x' }, JSON.parse('{"__proto__": null}')]) {
      expect(outcome(resolve(artifact, p))).toEqual(['CONFORMANT', 'SAFE']);
    }
  });

  it('bounds what cat and merge can build', () => {
    const doubling: JsonValue = {
      reduce: [{ var: 'xs' }, { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'ab'],
    };
    const growing: JsonValue = {
      reduce: [{ var: 'xs' }, { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]],
    };
    const xs = (n: number) => Array.from({ length: n }, () => 0);
    // 2^14 doublings stay within the bounds; 2^20 (megabytes, well under V8's own limits) do not.
    expect(compileRule(doubling)({ xs: xs(14) })).toHaveLength(2 ** 15);
    expect(compileRule(growing)({ xs: xs(14) })).toHaveLength(2 ** 14);
    expect(() => compileRule(doubling)({ xs: xs(20) })).toThrow();
    expect(() => compileRule(growing)({ xs: xs(20) })).toThrow();
  });
});
