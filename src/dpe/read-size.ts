/**
 * How much of a text the engine reads, counted as it reads it: every text is tokenised in its NFKC
 * form, and one character's compatibility form may be many (U+FDFA is 18 characters, four words),
 * so a limit on the characters as sent would let a text cost many times what its length says.
 * Each character counts as its own NFKC length (an upper bound on the NFKC form of the whole text,
 * which only composes further), and a cut never splits a surrogate pair.
 */

/** Characters below this are their own NFKC form (ASCII and the C1 controls). */
const STABLE_BELOW = 0xa0;
const widths = new Map<number, number>();

/** The NFKC length of one code point (1 for most). */
function widthOf(code: number): number {
  if (code < STABLE_BELOW) return 1;
  let w = widths.get(code);
  if (w === undefined) {
    w = String.fromCodePoint(code).normalize('NFKC').length;
    // At most a few thousand distinct characters are ever wide; the map stays small.
    if (widths.size < 65_536) widths.set(code, w);
  }
  return w;
}

/** Whether the code unit at `i` is the low half of a pair that starts at `i - 1`. */
function lowHalfAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const p = text.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && p >= 0xd800 && p <= 0xdbff;
}

/** The longest start of `text` whose characters, in NFKC, are at most `max` long. */
export function headWithin(text: string, max: number): string {
  let size = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const units = code > 0xffff ? 2 : 1;
    size += widthOf(code);
    if (size > max) return text.slice(0, i);
    i += units;
  }
  return text;
}

/** The longest end of `text` whose characters, in NFKC, are at most `max` long. */
export function tailWithin(text: string, max: number): string {
  let size = 0;
  let i = text.length;
  while (i > 0) {
    const start = i >= 2 && lowHalfAt(text, i - 1) ? i - 2 : i - 1;
    size += widthOf(text.codePointAt(start)!);
    if (size > max) return text.slice(i);
    i = start;
  }
  return text;
}

/** The NFKC size of `text` as {@link headWithin} counts it. */
export function readSize(text: string): number {
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    size += widthOf(code);
  }
  return size;
}
