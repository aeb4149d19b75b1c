/** Number and string measures that need more care than plain floating point or `.length`. */

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * A finite number as digits × 10^exponent: an integer exactly, a fraction by its shortest round-trip
 * decimal form (the digits an author writes: 0.0075, not the binary fraction nearest to it).
 */
function decimal(n: number): [bigint, number] {
  if (Number.isInteger(n)) return [BigInt(Math.abs(n)), 0];
  const m = DECIMAL.exec(String(Math.abs(n)));
  if (m === null) return [0n, 0];
  const fraction = m[2] ?? '';
  return [BigInt(m[1]! + fraction), Number(m[3] ?? 0) - fraction.length];
}

/**
 * Whether `value` is an integer multiple of `divisor` (> 0), decided exactly (BigInt) on the forms
 * above: 0.0075 is a multiple of 0.0001, 1.15 of 0.01 and 1e308 of 0.5, 1e20 is not one of 3,
 * whatever floating-point division says.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [a, ea] = decimal(value);
  const [b, eb] = decimal(divisor);
  if (b === 0n) return false;
  const e = Math.min(ea, eb);
  return (a * 10n ** BigInt(ea - e)) % (b * 10n ** BigInt(eb - e)) === 0n;
}

/** The length of a string in Unicode code points (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const high = text.charCodeAt(i);
    if (high >= 0xd800 && high <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
