import { describe, expect, it } from 'vitest';
import { CanonryError, jsonTextDepth, parseJsonText } from '../../src/core/index.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof CanonryError ? err.code : 'NOT_TYPED';
  }
  return undefined;
}

describe('parseJsonText', () => {
  it('measures depth outside strings only', () => {
    expect(jsonTextDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    expect(jsonTextDepth('"\\"[[["')).toBe(0);
    expect(jsonTextDepth('[]')).toBe(1);
  });

  it('refuses deep nesting before parsing', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(codeOf(() => parseJsonText(text, 64))).toBe('NESTING_TOO_DEEP');
    expect(codeOf(() => parseJsonText('[[1]]', 2))).toBeUndefined();
    expect(codeOf(() => parseJsonText('[[[1]]]', 2))).toBe('NESTING_TOO_DEEP');
  });

  it('refuses text that is not JSON with a typed error', () => {
    expect(codeOf(() => parseJsonText('{"a":'))).toBe('MALFORMED_BODY');
    expect(codeOf(() => parseJsonText("{'a':1}"))).toBe('MALFORMED_BODY');
    expect(codeOf(() => parseJsonText(''))).toBe('MALFORMED_BODY');
  });

  it('keeps __proto__ as plain data', () => {
    const value = parseJsonText('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(['__proto__']);
  });
});
