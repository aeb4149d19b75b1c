import { describe, expect, it } from 'vitest';
import { TextCache } from '../../src/core/index.js';

describe('TextCache: a map bounded by its keys’ characters', () => {
  it('lets the oldest keys go first once the characters pass the bound', () => {
    const cache = new TextCache<number>(10);
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    expect(cache.chars).toBe(8);
    cache.get('aaaa'); // a hit moves nothing: first in, first out
    cache.set('cccc', 3);
    expect(cache.get('aaaa')).toBeUndefined();
    expect([cache.get('bbbb'), cache.get('cccc')]).toEqual([2, 3]);
    expect(cache.chars).toBe(8);
    cache.set('dddddddddd', 4); // exactly the bound: everything older goes
    expect(cache.size).toBe(1);
    expect(cache.chars).toBe(10);
  });

  it('never keeps a key over its length bound, and counts a key set twice once', () => {
    const cache = new TextCache<string>(100, 5);
    cache.set('longer than five', 'x');
    expect(cache.size).toBe(0);
    cache.set('abc', 'one');
    cache.set('abc', 'two');
    expect(cache.chars).toBe(3);
    expect(cache.get('abc')).toBe('two');
    cache.clear();
    expect([cache.size, cache.chars]).toEqual([0, 0]);
  });

  it('holds its bound whatever is set', () => {
    const cache = new TextCache<number>(1_000, 64);
    let seed = 7;
    for (let i = 0; i < 5_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      cache.set(`${i}:${'x'.repeat(seed % 80)}`, i);
      expect(cache.chars).toBeLessThanOrEqual(1_000);
    }
    expect(cache.size).toBeGreaterThan(10);
  });

  it('memo makes a value once while it is kept, again once it is let go or too long to keep', () => {
    const cache = new TextCache<number>(6, 4);
    const made: string[] = [];
    const make = (key: string) => {
      made.push(key);
      return key.length;
    };
    expect(cache.memo('abc', make)).toBe(3);
    expect(cache.memo('abc', make)).toBe(3);
    expect(made).toEqual(['abc']);
    cache.memo('defg', make); // 7 characters: 'abc' goes
    expect(cache.memo('abc', make)).toBe(3);
    expect(cache.memo('toolong', make)).toBe(7);
    expect(cache.memo('toolong', make)).toBe(7);
    expect(made).toEqual(['abc', 'defg', 'abc', 'toolong', 'toolong']);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new TextCache(0)).toThrow(RangeError);
    expect(() => new TextCache(1.5)).toThrow(RangeError);
  });
});
