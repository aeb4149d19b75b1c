import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError, type JsonObject, type JsonValue } from '../../src/core/index.js';
import { compileConstraints } from '../../src/kernel/constraints.js';
import {
  compileSchema,
  MAX_EVALUATION_DEPTH,
  SchemaError,
} from '../../src/kernel/json-schema/index.js';

const REFUND: JsonObject = {
  type: 'object',
  required: ['amount'],
  additionalProperties: false,
  properties: { amount: { type: 'number' } },
};

const engineOf = (schema: JsonObject | boolean, remotes?: Record<string, JsonValue>) =>
  compileConstraints(schema, { remotes }).engine;

const parse = (text: string): JsonObject => JSON.parse(text);

describe('compileConstraints routing', () => {
  it('keeps plain schemas on Ajv', () => {
    expect(engineOf(REFUND)).toBe('ajv');
    expect(engineOf(true)).toBe('ajv');
    expect(
      engineOf({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string' }),
    ).toBe('ajv');
    expect(engineOf({ multipleOf: 5, contains: { type: 'string' }, required: ['toString'] })).toBe(
      'ajv',
    );
    expect(engineOf({ $defs: { n: { type: 'integer' } }, items: { $ref: '#/$defs/n' } })).toBe(
      'ajv',
    );
  });

  it('sends every feature Ajv gets wrong to the interpreter', () => {
    const canonry: JsonObject[] = [
      { $defs: { a: { $dynamicAnchor: 'a' } }, $dynamicRef: '#a' },
      { $dynamicAnchor: 'a', type: 'object' },
      { properties: { a: true }, unevaluatedProperties: false },
      { allOf: [{ prefixItems: [true] }], unevaluatedItems: false },
      { enum: [] },
      parse('{"properties":{"__proto__":{"type":"number"}}}'),
      parse('{"patternProperties":{"__proto__":{"type":"number"}}}'),
      { required: ['__proto__'] },
      { dependentRequired: { a: ['__proto__'] } },
      { $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true } },
      { $recursiveRef: '#' },
      { multipleOf: 0.01 },
      { prefixItems: [{ type: 'string' }], contains: { type: 'number' } },
      { items: { contains: { type: 'number' } } },
      { $defs: { c: { contains: { type: 'number' } } }, items: { $ref: '#/$defs/c' } },
      // reaches the meta-schema, which uses $dynamicRef
      { $ref: 'https://json-schema.org/draft/2020-12/schema' },
      // Ajv overflows the stack compiling these (ref.json); the interpreter takes them
      parse(
        '{"$ref":"urn:uuid:deadbeef-4321-ffff-ffff-1234feebdaed","$defs":{"foo":{"$id":"urn:uuid:deadbeef-4321-ffff-ffff-1234feebdaed","$defs":{"bar":{"type":"string"}},"$ref":"#/$defs/bar"}}}',
      ),
      parse(
        '{"$id":"http://example.com/schema-relative-uri-defs1.json","properties":{"foo":{"$id":"schema-relative-uri-defs2.json","$defs":{"inner":{"properties":{"bar":{"type":"string"}}}},"$ref":"#/$defs/inner"}},"$ref":"schema-relative-uri-defs2.json"}',
      ),
    ];
    for (const schema of canonry) expect(engineOf(schema), JSON.stringify(schema)).toBe('canonry');
  });

  it('looks into the remotes a schema reaches, and only those', () => {
    const remotes: Record<string, JsonValue> = {
      'https://example.com/strict.json': { properties: { a: true }, unevaluatedProperties: false },
      'https://example.com/plain.json': { type: 'string' },
      'https://example.com/meta.json': {
        $id: 'https://example.com/meta.json',
        $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true },
      },
    };
    expect(engineOf({ $ref: 'https://example.com/strict.json' }, remotes)).toBe('canonry');
    expect(engineOf({ $ref: 'https://example.com/plain.json' }, remotes)).toBe('ajv');
    expect(engineOf({ type: 'object' }, remotes)).toBe('ajv');
    expect(engineOf({ $schema: 'https://example.com/meta.json', minimum: 3 }, remotes)).toBe(
      'canonry',
    );
  });

  it('decides the same way every time, and both engines give the same verdicts', () => {
    const schemas: JsonObject[] = [REFUND, { enum: [] }, { items: { contains: { const: 1 } } }];
    for (const schema of schemas) {
      const engines = new Set(Array.from({ length: 5 }, () => engineOf(schema)));
      expect(engines.size).toBe(1);
    }
    const values = [{ amount: 1 }, { amount: '1' }, {}, { amount: 1, b: 2 }, [], null];
    const ajv = compileConstraints(REFUND);
    const interpreter = compileSchema(REFUND);
    for (const value of values) expect(interpreter.validate(value).valid).toBe(ajv(value).valid);
  });

  it('answers with the interpreter where Ajv throws on a value', () => {
    const check = compileConstraints({ const: { toString: 'x' } });
    expect(check.engine).toBe('ajv');
    expect(check({ toString: 'x' }).valid).toBe(true);
    expect(check({ toString: 'y' }).valid).toBe(false);
    const unique = compileConstraints({ uniqueItems: true });
    expect(unique([{ valueOf: 1 }, { valueOf: 1 }]).valid).toBe(false);
  });

  it('refuses what neither engine can give a meaning to, as INVALID_PROTOCOL', () => {
    const refused: JsonObject[] = [
      { $ref: '#' },
      {
        $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } },
        $ref: '#/$defs/a',
      },
      { anyOf: [{ type: 'string' }, { $ref: '#' }] },
      { $ref: '#/$defs/missing' },
      { $ref: 'https://example.com/not-registered.json' },
      { pattern: '(' },
      { patternProperties: { '[': true } },
      { $async: true, unevaluatedProperties: false },
    ];
    for (const schema of refused) {
      let thrown: unknown;
      try {
        compileConstraints(schema);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(schema)).toBeInstanceOf(CanonryError);
      expect((thrown as CanonryError).code).toBe('INVALID_PROTOCOL');
    }
  });
});

describe('the interpreter on hostile input', () => {
  const schemas: unknown[] = [
    REFUND,
    { items: { $ref: '#' } },
    { properties: { a: { $ref: '#' } }, unevaluatedProperties: false },
    { uniqueItems: true, items: { uniqueItems: true } },
    { const: { a: [[[1]]] } },
    { enum: [[], {}, 1, 'x', null] },
    { multipleOf: 0.0001, maximum: 1e308 },
    { minLength: 2, maxLength: 3, pattern: '^\\p{L}' },
    { propertyNames: { maxLength: 3 }, additionalProperties: { type: 'integer' } },
    parse('{"properties":{"__proto__":{"type":"number"},"constructor":{"type":"string"}}}'),
    { required: ['toString', 'constructor', '__proto__'] },
    { $dynamicAnchor: 'n', items: { $dynamicRef: '#n' } },
    { contains: { type: 'string' }, minContains: 2, maxContains: 3 },
  ];
  const deepArray = (depth: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  const hostile: unknown[] = [
    deepArray(100_000),
    [deepArray(5_000), deepArray(5_000)],
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 70,
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}'),
    JSON.parse('{"toString": 1, "valueOf": "x", "hasOwnProperty": null}'),
    '\ud800',
    'a\udc00b',
    { '\ud800': '\udfff' },
    Array.from({ length: 10_000 }, (_, i) => ({ i })),
  ];

  it('never throws, and reports an error exactly when invalid', () => {
    for (const schema of schemas) {
      const validator = compileSchema(schema);
      for (const value of hostile) {
        const result = validator.validate(value);
        expect(result.errors.length === 0).toBe(result.valid);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws on random JSON', () => {
    const validators = schemas.map((schema) => compileSchema(schema));
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const validator of validators) validator.validate(value);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('treats own keys as data: __proto__, constructor, toString', () => {
    const proto = compileSchema(parse('{"properties":{"__proto__":{"type":"number"}}}'));
    expect(proto.validate(JSON.parse('{"__proto__": 1}')).valid).toBe(true);
    expect(proto.validate(JSON.parse('{"__proto__": "x"}')).valid).toBe(false);
    expect(proto.validate({}).valid).toBe(true);
    const required = compileSchema({ required: ['toString', 'constructor'] });
    expect(required.validate({}).valid).toBe(false);
    expect(required.validate({ toString: 1, constructor: 2 }).valid).toBe(true);
  });

  it('bounds recursion: deep instances and dynamic loops are invalid, never a stack overflow', () => {
    const recursive = compileSchema({ items: { $ref: '#' } });
    expect(recursive.validate(deepArray(100)).valid).toBe(true);
    const deep = recursive.validate(deepArray(100_000));
    expect(deep.valid).toBe(false);
    expect(deep.errors[0]?.keyword).toBe('maxDepth');
    expect(MAX_EVALUATION_DEPTH).toBeGreaterThanOrEqual(1000);
    // A loop only $dynamicRef creates (its static target is a leaf): caught at validation.
    const loop = {
      $id: 'https://example.com/root',
      $dynamicAnchor: 'n',
      allOf: [{ $ref: 'inner' }],
      $defs: {
        inner: {
          $id: 'inner',
          $defs: { leaf: { $dynamicAnchor: 'n', type: 'string' } },
          $dynamicRef: '#n',
        },
      },
    };
    const validator = compileSchema(loop);
    expect(validator.validate('x').valid).toBe(false);
    expect(compileConstraints(loop)('x').valid).toBe(false);
    // `not` cannot turn a truncated evaluation into a pass.
    const negated = compileSchema({ not: { items: { $ref: '#/not' } } });
    expect(negated.validate(deepArray(100_000)).valid).toBe(false);
  });

  it('refuses $ref cycles that consume nothing at compile time', () => {
    expect(() => compileSchema({ $ref: '#' })).toThrow(SchemaError);
    expect(() => compileSchema({ not: { $ref: '#' } })).toThrow(SchemaError);
    const thenLoop = JSON.parse('{"if": {"$ref": "#/then"}, "then": {"$ref": "#/if"}}');
    expect(() => compileSchema(thenLoop)).toThrow(SchemaError);
    expect(() => compileSchema({ properties: { a: { $ref: '#' } } })).not.toThrow();
  });

  it('is deterministic and keeps no state between calls', () => {
    const validator = compileSchema({ format: 'byte' }, { formatAssertion: true });
    const verdicts = Array.from({ length: 4 }, () => validator.validate('aGk=').valid);
    expect(verdicts).toEqual([true, true, true, true]);
  });
});

describe('interpreter speed', () => {
  it('validates the refund schema in about a microsecond', () => {
    const ajv = compileConstraints(REFUND);
    const interpreter = compileSchema(REFUND);
    const value = { amount: 12.5 };
    const time = (run: () => unknown): number => {
      for (let i = 0; i < 20_000; i++) run();
      const n = 200_000;
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) run();
      return Number(process.hrtime.bigint() - start) / n / 1000;
    };
    const ajvMicros = time(() => ajv(value));
    const canonryMicros = time(() => interpreter.validate(value));
    console.log(
      `json-schema refund validation: Ajv ${ajvMicros.toFixed(3)} µs, interpreter ${canonryMicros.toFixed(3)} µs`,
    );
    expect(canonryMicros).toBeLessThan(50); // generous: only catches a pathological slowdown
  });
});

describe('interpreter errors', () => {
  it('locates the first failure in the instance and the schema', () => {
    const validator = compileSchema({
      properties: { a: { items: { type: 'string' } }, b: false },
      unevaluatedProperties: false,
    });
    expect(validator.validate({ a: ['x', 1] }).errors).toEqual([
      { instancePath: '/a/1', schemaPath: '#/properties/a/items/type', keyword: 'type' },
    ]);
    expect(validator.validate({ b: 1 }).errors).toEqual([
      { instancePath: '/b', schemaPath: '#/properties', keyword: 'false schema' },
    ]);
    expect(validator.validate({ 'c/d': 1 }).errors).toEqual([
      { instancePath: '/c~1d', schemaPath: '#/unevaluatedProperties', keyword: 'false schema' },
    ]);
    expect(validator.validate({ a: [] }).errors).toEqual([]);
  });
});
