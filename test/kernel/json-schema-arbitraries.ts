// Random JSON values and JSON Schemas for the schema suites (differential against Ajv, the step
// budget's static bound): one generator skeleton, the pools and extra keywords per suite.
import fc from 'fast-check';

export type Schema = boolean | { [key: string]: unknown };

/** The values a suite draws from; small pools make collisions (and so interesting cases) likely. */
export interface Pools {
  readonly keys: readonly string[];
  readonly numbers: readonly number[];
  readonly strings: readonly string[];
  readonly patterns: readonly string[];
  /** Most items or members of one generated array or object. */
  readonly width: number;
}

export const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];

/** Small natural numbers, for the length and count keywords. */
export const small = fc.nat({ max: 3 });

/** JSON values built from the pools. */
export function jsonValues(p: Pools): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.constantFrom(...p.numbers),
    fc.constantFrom(...p.strings),
  );
  return fc.letrec<{ json: unknown }>((tie) => ({
    json: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('json'), { maxLength: p.width }),
      fc.dictionary(fc.constantFrom(...p.keys), tie('json'), { maxKeys: p.width }),
    ),
  })).json;
}

/** The assertions both suites use; each adds its own. */
export function commonAssertions(
  p: Pools,
  json: fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>>[] {
  return [
    fc.record({ type: fc.constantFrom(...TYPES) }),
    fc.record({ enum: fc.array(json, { minLength: 1, maxLength: 3 }) }),
    fc.record({ const: json }),
    fc.record({ minLength: small }),
    fc.record({ pattern: fc.constantFrom(...p.patterns) }),
    fc.record({ minItems: small }),
    fc.record({ uniqueItems: fc.boolean() }),
    fc.record({ minProperties: small }),
    fc.record({ required: fc.subarray([...p.keys]) }),
  ];
}

/**
 * Schemas: `true`/`false` or an object of up to four parts, each an assertion (twice as likely) or an
 * applicator over nested schemas. `extraApplicators` adds a suite's own (`$ref`s, …).
 */
export function schemas(
  p: Pools,
  assertions: readonly fc.Arbitrary<Record<string, unknown>>[],
  extraApplicators: (
    sub: fc.Arbitrary<Schema>,
    list: fc.Arbitrary<Schema[]>,
  ) => fc.Arbitrary<Record<string, unknown>>[] = () => [],
): fc.Arbitrary<Schema> {
  const assertion = fc.oneof(...assertions);
  return fc.letrec<{ schema: Schema; node: Record<string, unknown> }>((tie) => {
    const sub = tie('schema');
    const list = fc.array(sub, { minLength: 1, maxLength: 3 });
    const applicator = fc.oneof(
      fc.record({ properties: fc.dictionary(fc.constantFrom(...p.keys), sub, { maxKeys: 3 }) }),
      fc.record({
        patternProperties: fc.dictionary(fc.constantFrom(...p.patterns), sub, { maxKeys: 2 }),
      }),
      fc.record({ additionalProperties: sub }),
      fc.record({ items: sub }),
      fc.record({ prefixItems: list }),
      fc.record({ contains: sub }),
      fc.record({ allOf: list }),
      fc.record({ anyOf: list }),
      fc.record({ oneOf: list }),
      fc.record({ not: sub }),
      fc
        .record({ if: sub, thenSchema: sub, elseSchema: sub }, { requiredKeys: ['if'] })
        .map(({ thenSchema, elseSchema, ...rest }) => ({
          ...rest,
          // `then` as a computed key: a literal one reads as a thenable to the linter.
          ...(thenSchema === undefined ? {} : Object.fromEntries([['then', thenSchema]])),
          ...(elseSchema === undefined ? {} : { else: elseSchema }),
        })),
      ...extraApplicators(sub, list),
    );
    return {
      schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.boolean(), tie('node')),
      node: fc
        .array(fc.oneof(assertion, assertion, applicator), { maxLength: 4 })
        .map((parts) => Object.assign({}, ...parts)),
    };
  }).schema;
}
