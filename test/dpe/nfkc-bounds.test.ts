import { describe, expect, it } from 'vitest';
import { analyseWindow, DPE_LIMITS } from '../../src/dpe/index.js';
import { readInput } from '../../src/dpe/input.js';

// U+FDFA is one character whose NFKC form, the form the engine tokenises, is 18 characters and
// four words: the limits are counted in that form, so a text costs what its length says.
const WIDE = '\ufdfa ';
const WIDE_READ = WIDE.normalize('NFKC').length; // 19

const base = { window_number: 1, text: '', context: [], remaining: [], earlier: [] };
const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('limits are counted in the form the engine reads', () => {
  it('reads no more of a text of wide characters than the text limit allows', () => {
    const text = WIDE.repeat(DPE_LIMITS.maxTextChars / 2);
    const s = analyseWindow({ ...base, text });
    expect(s.truncated).toBe(true);
    // One run-on sentence of a four-word cycle: its most frequent 6-gram occurs once per WIDE read.
    const occurrences = s.repetition.ngrams[0]!.count;
    expect(occurrences * WIDE_READ).toBeLessThanOrEqual(DPE_LIMITS.maxTextChars);
    expect(occurrences * WIDE_READ).toBeGreaterThan(DPE_LIMITS.maxTextChars - 4 * WIDE_READ);
  });

  it('says a text was cut when only its NFKC form is over the limit', () => {
    const text = WIDE.repeat(Math.ceil(DPE_LIMITS.maxTextChars / WIDE_READ) + 1);
    expect(text.length).toBeLessThan(DPE_LIMITS.maxTextChars);
    expect(analyseWindow({ ...base, text }).truncated).toBe(true);
  });

  it('bounds earlier windows and fact statements the same way', () => {
    const wide = WIDE.repeat(DPE_LIMITS.maxEarlierChars / 2);
    const read = readInput(
      {
        ...base,
        earlier: [wide, wide],
        context: [{ id: 'f', statement: WIDE.repeat(2_000), source: 'cso' }],
        remaining: [WIDE.repeat(1_000)],
      },
      { ...DPE_LIMITS },
    );
    expect(read.truncated).toBe(true);
    const earlier = read.earlier.join('').normalize('NFKC').length;
    expect(earlier).toBeLessThanOrEqual(DPE_LIMITS.maxEarlierChars);
    expect(read.context[0]!.statement.normalize('NFKC').length).toBeLessThanOrEqual(
      DPE_LIMITS.maxFactChars,
    );
    expect(read.remaining[0]!.normalize('NFKC').length).toBeLessThanOrEqual(
      DPE_LIMITS.maxRemainingChars,
    );
  });

  it('leaves a text within the limits whole, and never cuts a surrogate pair in two', () => {
    const ok = 'Redis keeps 32 GB. '.repeat(100);
    expect(readInput({ ...base, text: ok }, { ...DPE_LIMITS }).text).toBe(ok);
    const emoji = `a${'\u{1F600}'.repeat(DPE_LIMITS.maxTextChars)}`;
    const read = readInput({ ...base, text: emoji, earlier: [emoji] }, { ...DPE_LIMITS });
    expect(read.truncated).toBe(true);
    expect(read.text).not.toMatch(lone);
    expect(read.earlier[0]).not.toMatch(lone);
  });
});
