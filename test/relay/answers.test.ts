import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import {
  DEFLATE_FROM_CHARS,
  isMadeAnswer,
  journaledAnswer,
  journaledAnswers,
  rawAnswer,
} from '../../src/relay/answers.js';
import { ANSWER_LIMITS } from '../../src/relay/limits.js';

/** Answer text up to `max` characters, its length uniform (long ones as likely as short ones). */
const text = (max: number) =>
  fc.integer({ min: 0, max }).chain((n) =>
    fc
      .array(fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', 'é', '—', '→', '漢', '😀', '{', ':'), {
        minLength: n,
        maxLength: n,
      })
      .map((chars) => chars.join('')),
  );

/** The journaled form as it is stored: canonical JSON, read back. */
const stored = (raw: string, output: string) =>
  JSON.parse(canonicalize(journaledAnswer(raw, output)) as string);

describe('journaled model answers', () => {
  it('every answer comes back exactly, whatever its characters and wherever its output is', () => {
    const forms = new Set<string>();
    fc.assert(
      fc.property(
        text(40),
        text(2 * DEFLATE_FROM_CHARS),
        text(2 * DEFLATE_FROM_CHARS),
        fc.constantFrom('none', 'start', 'end', 'middle'),
        (output, before, after, where) => {
          const literal = JSON.stringify(output);
          const raw =
            where === 'none'
              ? `${before}${after}`
              : where === 'start'
                ? `${literal}${after}`
                : where === 'end'
                  ? `${before}${literal}`
                  : `${before}${literal}${after}`;
          const journaled = stored(raw, output);
          forms.add(Object.keys(journaled).sort().join(','));
          expect(rawAnswer(journaled, output)).toBe(raw);
        },
      ),
      { numRuns: 200 },
    );
    // Every form was taken: text, around the output, and deflated with and without it.
    expect([...forms].sort()).toEqual(['after,before', 'at,deflated', 'deflated', 'text']);
  });

  it('a long answer around its output is deflated to less than its text, the output cut out', () => {
    const output = 'Window 5 — the corrected figure.';
    const facts = Array.from({ length: 300 }, (_, i) => ({
      id: `f${i}`,
      statement: `fact ${i} → ${i * 3}`,
    }));
    const raw = JSON.stringify({ output, facts });
    const journaled = journaledAnswer(raw, output);
    expect(journaled).toMatchObject({ at: raw.indexOf(JSON.stringify(output)) });
    expect('deflated' in journaled && journaled.deflated.length).toBeLessThan(raw.length / 4);
    expect(rawAnswer(journaled, output)).toBe(raw);
  });

  it('answers with a lone surrogate, which no entry can hold, are not journaled at all', () => {
    const output = 'done';
    const good = `${'x'.repeat(DEFLATE_FROM_CHARS)}${JSON.stringify(output)} 😀`;
    const lone = `${'x'.repeat(DEFLATE_FROM_CHARS)}\ud83d${JSON.stringify(output)} tail`;
    expect(journaledAnswers([good], output)).toHaveLength(1);
    expect(journaledAnswers([good, lone], output)).toBeUndefined();
    expect(journaledAnswers(['\ude00'], output)).toBeUndefined();
  });

  it('vouches for the answers it makes from a raw answer within the bound, and only those', () => {
    const output = 'the output';
    for (const raw of [
      output,
      `{"output":${JSON.stringify(output)},"facts":"${'a'.repeat(DEFLATE_FROM_CHARS)}"}`,
      `{"output":${JSON.stringify(output)}}`,
      'no output here',
    ]) {
      const answer = journaledAnswer(raw, output);
      expect(isMadeAnswer(answer)).toBe(true);
      // Frozen: what the journal takes on trust cannot change after it was made.
      expect(Object.isFrozen(answer)).toBe(true);
      expect(() => Object.assign(answer, { text: 'changed' })).toThrow(TypeError);
      expect(isMadeAnswer({ ...answer })).toBe(false);
      expect(rawAnswer(answer, output)).toBe(raw);
    }
    const over = journaledAnswer('b'.repeat(ANSWER_LIMITS.answerChars + 1), output);
    expect(isMadeAnswer(over)).toBe(false);
    // A lone surrogate, which no entry can hold: given back as before, not vouched for.
    const lone = journaledAnswer('x\ud800y', output);
    expect(lone).toEqual({ text: 'x\ud800y' });
    expect(isMadeAnswer(lone)).toBe(false);
  });
});
