import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CanonryError,
  canonicalize,
  canonicalizeFixed,
  contentHash,
  MAX_CANONICAL_DEPTH,
} from '../../src/core/index.js';
import { conformanceDir } from '../conformance-path.js';

const jcs = conformanceDir('jcs-rfc8785');

describe('RFC 8785 vectors (cyberphone/json-canonicalization)', () => {
  const names = readdirSync(join(jcs, 'testdata/input')).filter((f) => f.endsWith('.json'));

  it('has the six vector files', () => {
    expect(names.sort()).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
  });

  for (const name of names) {
    it(`canonicalizes ${name} to the exact expected bytes`, () => {
      const input = JSON.parse(readFileSync(join(jcs, 'testdata/input', name), 'utf8'));
      const expected = readFileSync(join(jcs, 'testdata/output', name));
      const hex = readFileSync(join(jcs, 'testdata/outhex', name.replace('.json', '.txt')), 'utf8')
        .replace(/\s+/g, '')
        .toLowerCase();
      const actual = Buffer.from(canonicalize(input), 'utf8');
      expect(actual.equals(expected)).toBe(true);
      expect(actual.toString('hex')).toBe(hex);
    });
  }

  it('serialises the 10,000 ES6 number vectors exactly', () => {
    const lines = readFileSync(join(jcs, 'es6-numbers/es6testfile10k.txt'), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(lines).toHaveLength(10_000);
    const bits = new BigUint64Array(1);
    const double = new Float64Array(bits.buffer);
    let failures = 0;
    for (const line of lines) {
      const [hex, expected] = line.split(',');
      bits[0] = BigInt(`0x${hex}`);
      if (canonicalize(double[0]) !== expected) failures++;
    }
    expect(failures).toBe(0);
  });
});

describe('canonicalize refuses what is not JSON', () => {
  const refused: Array<[string, unknown]> = [
    ['NaN', Number.NaN],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['undefined', undefined],
    ['undefined in an array', [1, undefined]],
    ['a function', { f: () => 1 }],
    ['a bigint', 1n],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a lone surrogate', 'a\ud800b'],
    ['a lone surrogate key', { '\udc00': 1 }],
  ];
  for (const [what, value] of refused) {
    it(`refuses ${what}`, () => {
      try {
        canonicalize(value);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(CanonryError);
        expect((err as CanonryError).code).toBe('NOT_CANONICALIZABLE');
      }
    });
  }

  it('refuses nesting past the bound instead of overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(() => canonicalize(deep)).toThrowError(CanonryError);
  });

  it('omits object members whose value is undefined, as JSON does', () => {
    expect(canonicalize({ b: undefined, a: 1 })).toBe('{"a":1}');
  });
});

describe('canonical form properties', () => {
  it('round-trips through JSON.parse and ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalize(value);
        expect(canonicalize(JSON.parse(text))).toBe(text);
        const shuffled = JSON.parse(JSON.stringify(value, (_k, v) => reverseKeys(v)));
        expect(contentHash(shuffled)).toBe(contentHash(value));
      }),
      { numRuns: 300 },
    );
  });

  it('serialises every string exactly as JSON.stringify, keys sorted, whatever its characters', () => {
    // ASCII (the fast path, with quotes, backslashes and control characters), then any well-formed
    // string (escapes and non-ASCII take the general path).
    const text = fc.oneof(
      fc.string({ unit: 'binary-ascii' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }).filter((s) => s.isWellFormed()),
    );
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.array(text))), (value) => {
        expect(canonicalize(value)).toBe(sortedJson(value));
      }),
      { numRuns: 500 },
    );
  });
});

describe('fixed values (canonicalizeFixed)', () => {
  it('gives the same text as canonicalize, alone and inside any value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (inner, outer) => {
        const fixed = { inner, n: 1 };
        const plain = structuredClone(fixed);
        expect(canonicalizeFixed(fixed)).toBe(canonicalize(plain));
        expect(canonicalize({ outer, fixed, again: [fixed] })).toBe(
          canonicalize({ outer, fixed: plain, again: [plain] }),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the text of the object it was given: later encodings do not read it again', () => {
    const item = { id: 'f1', statement: 'kept' };
    const text = canonicalizeFixed(item);
    // Breaking the promise shows where the text comes from: the kept one, not the object's fields.
    item.statement = 'changed after';
    expect(canonicalize({ items: [item] })).toBe(`{"items":[${text}]}`);
    expect(canonicalizeFixed(item)).toBe(text);
    expect(canonicalize({ ...item })).toContain('changed after');
  });

  it('still refuses nesting past the bound where a fixed value is met, as canonicalize would', () => {
    // A fixed value ten levels deep, wrapped in arrays around the bound: the same verdict as an
    // unfixed copy at every depth.
    let tower: unknown = { leaf: true };
    for (let i = 0; i < 9; i++) tower = { up: tower };
    const fixed = { tower };
    canonicalizeFixed(fixed);
    const wrap = (value: unknown, depth: number) => {
      let out = value;
      for (let i = 0; i < depth; i++) out = [out];
      return out;
    };
    const verdict = (value: unknown) => {
      try {
        canonicalize(value);
        return 'ok';
      } catch (err) {
        return (err as CanonryError).code;
      }
    };
    const verdicts = [];
    for (let depth = MAX_CANONICAL_DEPTH - 14; depth <= MAX_CANONICAL_DEPTH - 8; depth++) {
      const expected = verdict(wrap(structuredClone(fixed), depth));
      expect(verdict(wrap(fixed, depth))).toBe(expected);
      verdicts.push(expected);
    }
    expect(verdicts).toContain('ok');
    expect(verdicts).toContain('NOT_CANONICALIZABLE');
  });
});

describe('member order', () => {
  it('sorts members by UTF-16 code units whatever their number, integer-like and astral keys too', () => {
    // Up to 60 members: both sides of the insertion sort's bound; keys that sort differently by
    // code point (U+FFFD after a surrogate pair) and integer-like keys (enumerated first by JS).
    const key = fc.oneof(
      fc.string({ unit: 'binary' }).filter((s) => s.isWellFormed()),
      fc.nat({ max: 200 }).map(String),
      fc.constantFrom('\u{1F600}', '\uFFFD', 'a\u{10000}', 'a\uFFFF', ''),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.nat(), { maxKeys: 60 }), (value) => {
        expect(canonicalize(value)).toBe(sortedJson(value));
      }),
      { numRuns: 400 },
    );
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [String(40 - i), i]));
    expect(canonicalize(many)).toBe(sortedJson(many));
  });
});

/** The reference: members sorted by UTF-16 code units, each key and value as JSON.stringify writes it. */
function sortedJson(v: Record<string, unknown>): string {
  const members = Object.entries(v)
    .filter(([, x]) => x !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`);
  return `{${members.join(',')}}`;
}

function reverseKeys(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v).reverse());
}
