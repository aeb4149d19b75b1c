import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/core/index.js';

describe('compareCodeUnits', () => {
  it('orders strings as sort() with no comparator does (UTF-16 code units), never by locale', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 40 }), (xs) => {
        expect([...xs].sort(compareCodeUnits)).toEqual([...xs].sort());
      }),
      { numRuns: 300 },
    );
    // An astral character (a surrogate pair, 0xD83D…) sorts before U+FF5E; the locale puts it after.
    expect(['～', '😀', 'a', 'B'].sort(compareCodeUnits)).toEqual(['B', 'a', '😀', '～']);
    expect(compareCodeUnits('id', 'id')).toBe(0);
  });
});
