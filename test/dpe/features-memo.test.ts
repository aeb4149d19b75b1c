import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forgetReadings, readingsKept } from '../../src/dpe/features.js';
import { analyseWindow } from '../../src/dpe/index.js';

/**
 * A text's reading is kept by its text and its features rebuilt only when the lexicon answers
 * differently for one of its tokens. Each window is analysed twice: with what earlier windows left
 * (read against their lexicons), then afresh, with every reading forgotten — the same signals.
 */
const WORDS = [
  'Redis',
  'redis',
  'PostgreSQL',
  'postgresql',
  'cache',
  'latency',
  'is',
  'not',
  'faster',
  'than',
  'the',
  '3',
  'ms',
  'GB',
  'Kafka',
  'kafka',
  'runs',
  'in',
  'eu-west-1',
  '40%',
];

const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 9 })
  .map((ws) => `${ws.join(' ')}.`);

/** The signals' claims of a window whose one claim is `claim` against `facts`: features at work. */
const claimsOf = (claim: string, facts: readonly string[]) =>
  analyseWindow({
    window_number: 2,
    text: claim,
    context: facts.map((statement, i) => ({ id: `f${i}`, statement, source: 'CONVERSATION' })),
    remaining: [],
    earlier: [],
  }).claims;

describe('the DPE reads a text once and its features again only when the lexicon moves', () => {
  it('gives the same signals as a first reading, window after window, whatever the lexicon does', () => {
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(sentence, fc.subarray(WORDS)), { minLength: 1, maxLength: 6 }),
        (facts, windows) => {
          for (const [claim, named] of windows) {
            // The window's text names entities that join the lexicon: some facts' open tokens
            // change their reading from one window to the next.
            const text = `${claim} ${named.filter((w) => /^[A-Z]/.test(w)).join(' and ')} work.`;
            const kept = claimsOf(text, facts);
            forgetReadings();
            expect(kept).toEqual(claimsOf(text, facts));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps at most a million characters of texts, oldest out, and never a text over 4,096', () => {
    forgetReadings();
    const text = (i: number, n: number) => `Fact ${i} says ${'word '.repeat(n / 5)}`.slice(0, n);
    // A 5,000-character sentence of the window's text is read, not kept; the fact is.
    claimsOf(`${text(0, 5_000)}.`, ['A fact.']);
    expect(readingsKept()).toEqual({ texts: 1, chars: 'A fact.'.length });
    for (let i = 1; i <= 600; i++) claimsOf('A claim.', [text(i, 2_000)]);
    const kept = readingsKept();
    expect(kept.chars).toBeLessThanOrEqual(1_048_576);
    expect(kept.chars).toBeGreaterThan(1_048_576 - 2_000);
    expect(kept.texts).toBeLessThan(601);
  });
});
