/**
 * fast-check generators of JsonLogic conditions in canonry's closed operator set and of the data
 * they run on, for the differential test against the reference engine.
 */
import fc from 'fast-check';
import type { JsonValue } from '../../src/core/index.js';

/** Paths into {@link dataArb}'s shape, plus misses and prototype names. */
const PATHS = [
  '',
  'n',
  'm',
  's',
  't',
  'b',
  'z',
  'xs',
  'ys',
  'xs.0',
  'xs.1',
  'o',
  'o.a',
  'o.b.c',
  'nested',
  'nested.0.a',
  'missing',
  'missing.deep',
  'accumulator',
  'current',
  'type',
  'index',
  '__proto__',
  'constructor',
  'toString',
  'length',
  's.length',
  'xs.length',
];

const scalar = fc.oneof(
  fc.integer({ min: -5, max: 10 }),
  fc.constantFrom(0, 1, -1, 0.5, 2.5, 1e300),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('', 'a', 'ab', 'abc', '0', '1', '2', '10', '-1', '1.5', ' ', 'x y', 'NaN'),
  fc.string({ maxLength: 4 }),
  fc.boolean(),
  fc.constant(null),
);

/** Data: a record with numbers, strings, arrays and objects under the names in {@link PATHS}. */
export const dataArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  {
    weight: 8,
    arbitrary: fc.record(
      {
        n: fc.oneof(
          fc.integer({ min: -5, max: 10 }),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
        m: scalar,
        s: fc.oneof(
          fc.constantFrom('', 'abc', '12', 'a.b', 'hello world'),
          fc.string({ maxLength: 6 }),
        ),
        t: scalar,
        b: fc.boolean(),
        z: fc.constantFrom(0, '', null, false, [], '0'),
        xs: fc.array(
          fc.oneof(fc.integer({ min: -3, max: 5 }), fc.constantFrom('a', '1', null, true)),
          {
            maxLength: 5,
          },
        ),
        ys: fc.array(scalar, { maxLength: 4 }),
        o: fc.oneof(
          fc.record({ a: scalar, b: fc.record({ c: scalar }) }, { requiredKeys: [] }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        nested: fc.array(fc.record({ a: scalar, xs: fc.array(scalar, { maxLength: 3 }) }), {
          maxLength: 3,
        }),
        type: scalar,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue> },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: scalar },
) as fc.Arbitrary<JsonValue>;

const isOperation = (node: JsonValue): node is { [key: string]: JsonValue } =>
  node !== null && typeof node === 'object' && !Array.isArray(node);

const op = (name: string) => (args: JsonValue) => ({ [name]: args }) as JsonValue;

/** Operators whose arguments are a list of values. */
const EAGER = ['+', '-', '*', '/', '%', 'min', 'max', 'cat', 'substr', 'in', 'merge'];
const COMPARE = ['==', '===', '!=', '!==', '<', '<=', '>', '>='];
const ITERATORS = ['map', 'filter', 'all', 'some', 'none'];

/** Conditions in the closed set, up to a few levels deep, with arguments of many shapes. */
export const conditionArb: fc.Arbitrary<JsonValue> = fc.letrec<{ expr: JsonValue }>((tie) => {
  const expr = tie('expr');
  const list = (min: number, max: number) => fc.array(expr, { minLength: min, maxLength: max });
  const climb = fc.constantFrom(1, 2, 3, 4);
  const key = fc.oneof(fc.constantFrom(...PATHS.filter((p) => !p.includes('.'))), fc.nat(3));
  return {
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: scalar as fc.Arbitrary<JsonValue> },
      { weight: 6, arbitrary: fc.constantFrom(...PATHS).map((p) => ({ var: p })) },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...PATHS), scalar).map(([p, d]) => ({ var: [p, d] })),
      },
      { weight: 1, arbitrary: expr.map((e) => ({ var: e })) },
      { weight: 2, arbitrary: fc.array(key, { maxLength: 3 }).map((k) => ({ val: k })) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(climb, fc.array(key, { maxLength: 2 }))
          .map(([c, k]) => ({ val: [[c], ...k] }) as JsonValue),
      },
      { weight: 1, arbitrary: fc.array(key, { maxLength: 2 }).map((k) => ({ exists: k })) },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.constantFrom(...PATHS), { maxLength: 3 })
          .map((k) => ({ missing: k })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.integer({ min: 0, max: 3 }),
            fc.array(fc.constantFrom(...PATHS), { maxLength: 3 }),
          )
          .map(([n, k]) => ({ missing_some: [n, k] })),
      },
      {
        weight: 6,
        arbitrary: fc.tuple(fc.constantFrom(...COMPARE), list(2, 3)).map(([o, a]) => op(o)(a)),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...COMPARE), list(0, 1)).map(([o, a]) => op(o)(a)),
      },
      {
        weight: 4,
        arbitrary: fc.tuple(fc.constantFrom(...EAGER), list(0, 3)).map(([o, a]) => op(o)(a)),
      },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...EAGER), expr).map(([o, a]) => op(o)(a)) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom('and', 'or', '??'), list(1, 3))
          .map(([o, a]) => op(o)(a)),
      },
      { weight: 2, arbitrary: list(3, 5).map((a) => ({ if: a })) },
      { weight: 1, arbitrary: list(3, 3).map((a) => ({ '?:': a })) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom('!', '!!'), fc.oneof(expr, list(1, 2)))
          .map(([o, a]) => op(o)(a)),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom(...ITERATORS), expr, expr)
          .map(([o, a, m]) => op(o)([a, m])),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(expr, expr, fc.option(expr, { nil: undefined }))
          .map(([a, m, d]) => ({ reduce: d === undefined ? [a, m] : [a, m, d] })),
      },
      { weight: 1, arbitrary: expr.map((e) => ({ throw: e })) },
      // json-logic-engine builds `try` with `'+' in first`: a scalar there is a TypeError caught at
      // build time, and a first `+` takes a shortcut that runs the fallback on the original data.
      {
        weight: 2,
        arbitrary: fc
          .tuple(expr, list(0, 2))
          .filter(([first]) => isOperation(first) && !('+' in first))
          .map(([first, rest]) => ({ try: [first, ...rest] })),
      },
      {
        weight: 1,
        arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ preserve: v as JsonValue })),
      },
      { weight: 1, arbitrary: list(0, 3) },
    ),
  };
}).expr;
