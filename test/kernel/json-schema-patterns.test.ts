import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { StepBudget } from '../../src/kernel/budget.js';
import { compileConstraints } from '../../src/kernel/constraints.js';
import {
  compileSchema,
  linearPattern,
  PATTERN_LIMITS,
  PatternRefused,
} from '../../src/kernel/json-schema/index.js';
import { compileProtocol, type ProtocolIssue } from '../../src/kernel/protocol.js';
import { refundProtocol } from './refund-protocol.js';

/** Patterns on RE2 must match exactly what ECMA-262 (Unicode mode) matches, or be refused. */

const cp = (n: number) => String.fromCodePoint(n);

/** A spread of code points: ASCII, Latin-1, spaces, line breaks, astral, and range edges. */
const SAMPLE: string[] = [
  ...Array.from({ length: 0x180 }, (_, i) => i),
  ...[0x1680, 0x2000, 0x200a, 0x200b, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff, 0xfffe],
  ...[0x0370, 0x03a9, 0x0416, 0x05d0, 0x0660, 0x07c0, 0x09e6, 0x4e2d, 0xac00, 0xd7ff, 0xe000],
  ...[0x10000, 0x1d400, 0x1f600, 0x1f4a9, 0x20000, 0x10ffff],
].map(cp);

const STRINGS = [
  '',
  'abc',
  'abc\n',
  'a\nb',
  'A_1',
  'école',
  'ÉCOLE',
  '😀😁',
  'x😀y',
  '  \t',
  '\u00a0\u2003',
  '42',
  '৪২',
  'a-b',
  'ab]c',
  '\\',
  '/path/to',
  '\u0003',
  'aaaaab',
];

/** Asserts that RE2 (through the translation) and V8 agree on every sample string. */
function agree(source: string, inputs: string[] = [...SAMPLE, ...STRINGS]): void {
  const v8 = new RegExp(source, 'u');
  const re2 = linearPattern(source);
  const differ = inputs.filter((s) => v8.test(s) !== re2.test(s));
  expect(differ, `${source} → ${re2.re2}`).toEqual([]);
}

describe('ECMA-262 patterns on RE2', () => {
  it('means what ECMA-262 means for anchors, dot, classes and escapes', () => {
    const patterns = [
      '^abc$',
      'abc$',
      '^$',
      '.',
      '^.$',
      '^..$',
      'a.c',
      '\\d',
      '^\\d+$',
      '\\D',
      '\\w',
      '^\\W$',
      '\\s',
      '^\\S$',
      '[\\s\\d]',
      '[^\\s]',
      '[^\\S]',
      '[\\D]',
      '\\bab',
      'c\\b',
      '\\Bb',
      '[a-z]+',
      '[^a-z]',
      '[-a]',
      '[a-]',
      '[--0]',
      '[a-z-0]',
      '[\\w-]',
      '[\\]]',
      '[]',
      '[^]',
      'a[]',
      '[\\b]',
      '\\cC',
      '\\cc',
      '\\0',
      '\\t\\n\\v\\f\\r',
      '\\x41',
      '\\u00e9',
      '\\u{1F600}',
      '\\uD83D\\uDE00',
      '\\/',
      '\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\',
      '(?:ab)+',
      '(ab|cd)*e',
      '(?<name>a)b',
      'a{2}',
      'a{2,}',
      'a{1,3}?b',
      'a*?b',
      '^(a+)+$',
      '😀+',
      '[😀-😂]',
      'x|',
      '|y',
      '()',
    ];
    for (const source of patterns) agree(source);
  });

  it('agrees with V8 on random patterns and strings (fast-check)', () => {
    const ATOMS = [
      'a',
      'b',
      'é',
      '😀',
      '.',
      '\\d',
      '\\D',
      '\\s',
      '\\S',
      '\\w',
      '\\W',
      '[a-c]',
      '[^b]',
      '[\\s\\d]',
      '[^\\W]',
      '\\p{L}',
      '\\P{Lu}',
      '\\p{Nd}',
      '\\u00e9',
      '\\x61',
      '\\.',
      '[😀-😂]',
      ' ',
    ];
    const QUANTIFIERS = ['', '', '*', '+', '?', '{2}', '{1,2}', '{0,}', '*?', '+?'];
    const pattern = fc.letrec<{ alt: string; seq: string; term: string }>((tie) => ({
      alt: fc.array(tie('seq'), { minLength: 1, maxLength: 2 }).map((seqs) => seqs.join('|')),
      seq: fc.array(tie('term'), { maxLength: 3 }).map((terms) => terms.join('')),
      // Shallow: V8, the reference, backtracks exponentially in the nesting of quantified groups.
      term: fc.oneof(
        { maxDepth: 3, depthIdentifier: 'group' },
        fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q),
        fc.constantFrom('^', '$', '\\b'), // \B: see the surrogate-pair test below
        fc
          .tuple(tie('alt'), fc.constantFrom(...QUANTIFIERS), fc.boolean())
          .map(([inner, q, capture]) => `(${capture ? '' : '?:'}${inner})${q}`),
      ),
    })).alt;
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', 'é', '😀', ' ', '\n', '1', '_', 'A'),
      maxLength: 7,
    });
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 5, maxLength: 10 }), (source, inputs) => {
        agree(source, [...inputs, ...STRINGS]);
      }),
      { numRuns: 600, seed: 11 },
    );
  });

  it('never looks for \\B inside a surrogate pair (ECMA-262 matches by code point; V8 does not)', () => {
    expect(linearPattern('\\B').test('x😀y')).toBe(false);
    expect(/\B/u.test('x😀y')).toBe(true); // V8 tries index 2, between the two halves of 😀
    expect(linearPattern('\\B').test('xy')).toBe(true);
    expect(linearPattern('\\B').test('😀')).toBe(true);
  });

  it('matches ECMA-262 whitespace exactly on every BMP code point', () => {
    const v8 = /^\s$/u;
    const re2 = linearPattern('^\\s$');
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (v8.test(cp(c)) !== re2.test(cp(c))) differ.push(c);
    }
    expect(differ).toEqual([]);
  });

  it('accepts every General_Category alias and the binary properties RE2 has tables for', () => {
    const names = [
      'L',
      'Letter',
      'Lu',
      'Uppercase_Letter',
      'LC',
      'Cased_Letter',
      'Nd',
      'digit',
      'Decimal_Number',
      'P',
      'punct',
      'Cc',
      'cntrl',
      'M',
      'Combining_Mark',
      'Zs',
      'Cn',
      'Unassigned',
      'Co',
      'General_Category=Lu',
      'gc=Nd',
      'Script=Greek',
      'sc=Latin',
      'Script=Han',
      'ASCII',
      'Any',
      'Assigned',
      'Alphabetic',
      'Alpha',
      'White_Space',
      'space',
      'Emoji',
      'Lowercase',
      'Uppercase',
      'Hex_Digit',
      'ASCII_Hex_Digit',
    ];
    for (const name of names) {
      agree(`^\\p{${name}}$`);
      agree(`^\\P{${name}}$`);
      agree(`^[x\\p{${name}}]$`);
      agree(`^[^\\p{${name}}]$`);
    }
  });

  it('refuses what RE2 cannot express, saying why', () => {
    const refused: [string, RegExp][] = [
      ['(a)\\1', /backreference/],
      ['(?<n>a)\\k<n>', /backreference/],
      ['a(?=b)', /lookahead/],
      ['a(?!b)', /lookahead/],
      ['(?<=a)b', /lookbehind/],
      ['(?<!a)b', /lookbehind/],
      ['\\p{scx=Greek}', /Script_Extensions/],
      ['\\p{Script=Grek}', /long script names/],
      ['\\p{ID_Start}', /ID_Start/],
      ['a{1001}', /above 1000/],
      ['x'.repeat(PATTERN_LIMITS.maxLength + 1), /longer than/],
      ['(?:\\p{L}|\\p{N}){200}', /instructions and character ranges/],
      ['(?:x{50}){50}', /instructions|repeat/],
    ];
    for (const [source, reason] of refused) {
      expect(() => linearPattern(source), source).toThrow(PatternRefused);
      expect(() => linearPattern(source), source).toThrow(reason);
    }
    // Not ECMA-262 at all (RE2-only or broken syntax): a plain error, not a refusal.
    for (const source of ['(?i)abc', '(', '[[:alpha:]]', 'a**', '\\p{Greek}', 'a{2,1}']) {
      expect(() => linearPattern(source), source).toThrow();
      expect(() => linearPattern(source), source).not.toThrow(PatternRefused);
    }
  });

  it('runs catastrophic patterns in linear time, charging the budget before matching', () => {
    const validator = compileSchema({ pattern: '^(a+)+$' });
    const weight = linearPattern('^(a+)+$').weight;
    const text = `${'a'.repeat(5_000)}b`; // V8's backtracking would need ~2^5000 steps
    const budget = new StepBudget(Number.POSITIVE_INFINITY);
    expect(validator.validate(text, budget).valid).toBe(false);
    expect(validator.validate('aaaa', new StepBudget(1e9)).valid).toBe(true);
    // Node, keyword and the regex charge, which grows with length × program size.
    const again = new StepBudget(Number.POSITIVE_INFINITY);
    validator.validate(text, again);
    expect(again.used).toBe(budget.used);
    expect(budget.used).toBeGreaterThan(text.length * weight);
    // A longer string than the budget allows is exhausted before the engine runs.
    const long = validator.validate('a'.repeat(200_000), new StepBudget(100_000));
    expect(long).toMatchObject({ valid: false, exhausted: true });
  });

  it('runs Ajv on the same linear-time engine', () => {
    const check = compileConstraints({ properties: { name: { pattern: '^(a+)+$' } } });
    const result = check({ name: `${'a'.repeat(200)}b` });
    // On V8 this call would not return: (a+)+ backtracks 2^200 times before failing.
    expect(result).toMatchObject({ valid: false, engine: 'ajv' });
    expect(check({ name: 'aaa' })).toMatchObject({ valid: true, engine: 'ajv' });
    const keys = compileConstraints({ patternProperties: { '^(x+x+)+y$': { type: 'integer' } } });
    expect(keys({ [`${'x'.repeat(300)}!`]: 'not checked' })).toMatchObject({
      valid: true,
      engine: 'ajv',
    });
    expect(keys({ xxy: 'no' })).toMatchObject({ valid: false, engine: 'ajv' });
  });
});

/** The issues of a refused protocol. */
function issuesOf(constraints: unknown): ProtocolIssue[] {
  try {
    compileProtocol({ ...refundProtocol(), constraints });
  } catch (error) {
    expect(error).toBeInstanceOf(CanonryError);
    expect((error as CanonryError).code).toBe('INVALID_PROTOCOL');
    return (error as CanonryError).details?.issues as ProtocolIssue[];
  }
  throw new Error('the protocol was accepted');
}

describe('patterns in protocols', () => {
  it('refuses a pattern RE2 cannot run with a pointer to it', () => {
    const pattern = issuesOf({ properties: { x: { pattern: '(a)\\1' } } });
    expect(pattern[0]?.path).toBe('/constraints/properties/x/pattern');
    expect(pattern[0]?.message).toMatch(/backreferences are not supported/);
    const keys = issuesOf({ patternProperties: { 'a/(?=b)': true } });
    expect(keys[0]?.path).toBe('/constraints/patternProperties/a~1(?=b)');
    expect(keys[0]?.message).toMatch(/lookahead/);
    const invalid = issuesOf({ items: { pattern: '[' } });
    expect(invalid[0]?.path).toBe('/constraints/items/pattern');
  });

  it('bounds what all the patterns of a schema may cost to compile', () => {
    const many = Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [`p${i}`, { pattern: `^item-${i}$` }]),
    );
    const issues = issuesOf({ properties: many });
    expect(issues[0]?.path).toMatch(/^\/constraints\/properties\/p\d+\/pattern$/);
    expect(issues[0]?.message).toMatch(/instructions and ranges/);
    const fewer = Object.fromEntries(Object.entries(many).slice(0, 100));
    expect(() =>
      compileProtocol({ ...refundProtocol(), constraints: { properties: fewer } }),
    ).not.toThrow();
  });

  it('asserts format "regex" with ECMA-262 syntax, charged by length', () => {
    const check = compileConstraints({ format: 'regex' }, { formatAssertion: true });
    expect(check('^(a)\\1$').valid).toBe(true); // a valid ECMA-262 regex, never run
    expect(check('(').valid).toBe(false);
    const budget = new StepBudget(1_000);
    expect(check('a'.repeat(10_000), budget)).toMatchObject({ valid: false, exhausted: true });
  });
});
