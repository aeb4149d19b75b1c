import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError, hashBytes, isContentHash, parseContentHash } from '../../src/core/index.js';

/** The rule as written in the docs, kept here as the reference the checking loop must agree with. */
const REFERENCE = /^sha256:[0-9a-f]{64}$/;

describe('content hashes', () => {
  it('accepts exactly sha256: and 64 lowercase hex digits', () => {
    const good = hashBytes('canonry');
    expect(isContentHash(good)).toBe(true);
    expect(parseContentHash(good)).toBe(good);
    const hex = good.slice(7);
    for (const bad of [
      `sha256:${hex.toUpperCase()}`,
      `sha256:${hex.slice(1)}`,
      `sha256:${hex}0`,
      `sha256:${hex}\n`,
      `sha512:${hex}`,
      `SHA256:${hex}`,
      `sha256:${hex.slice(0, 63)}g`,
      `sha256:${hex.slice(0, 63)}/`,
      `sha256:${hex.slice(0, 63)}:`,
      `sha256:${hex.slice(0, 63)}\u0660`,
      // Code units whose low byte is a hex digit ('0', 'a', 'f'): the check must see the whole unit.
      `sha256:${hex.slice(0, 63)}\u0130`,
      `sha256:\u0161${hex.slice(1)}`,
      `sha256:${hex.slice(0, 30)}\uff66${hex.slice(31)}`,
      '',
      42,
      null,
      { toString: () => good },
    ]) {
      expect(isContentHash(bad), String(bad)).toBe(false);
      expect(() => parseContentHash(bad, 'generation_metadata_hash')).toThrow(CanonryError);
    }
  });

  it('agrees with the regular expression on arbitrary strings near the shape', () => {
    const alphabet = fc.constantFrom(
      ...'0123456789abcdefABCDEFgz:/`@G \n\u0130\u0161\u0166\uff66'.split(''),
    );
    const near = fc
      .array(alphabet, { minLength: 62, maxLength: 66 })
      .map((chars) => `sha256:${chars.join('')}`);
    const hex = fc
      .array(fc.constantFrom(...'0123456789abcdef'.split('')), { minLength: 63, maxLength: 65 })
      .map((chars) => `sha256:${chars.join('')}`);
    fc.assert(
      fc.property(fc.oneof(near, hex, fc.string()), (value) => {
        expect(isContentHash(value)).toBe(REFERENCE.test(value));
      }),
      { numRuns: 5_000 },
    );
  });
});
