import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import {
  DEFLATE_FROM_CHARS,
  journaledAnswer,
  journaledAnswers,
  rawAnswer,
} from '../../src/relay/answers.js';

/** A seeded generator of answer text: ASCII, Latin-1, two-byte and astral characters. */
function texts(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const alphabet = ['a', 'Z', ' ', '"', '\\', '\n', 'é', '—', '→', '漢', '😀', '{', '}', ':'];
  return (length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

/** The journaled form as it is stored: canonical JSON, read back. */
const stored = (raw: string, output: string) =>
  JSON.parse(canonicalize(journaledAnswer(raw, output)) as string);

describe('journaled model answers', () => {
  it('every answer comes back exactly, whatever its characters and wherever its output is', () => {
    const text = texts(7);
    const forms = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const output = text(1 + (i % 40));
      const around = [text(i * 97), text((i * 53) % (2 * DEFLATE_FROM_CHARS))];
      const literal = JSON.stringify(output);
      const raw =
        i % 4 === 0
          ? `${around[0]}${around[1]}` // no output in it
          : i % 4 === 1
            ? `${literal}${around[1]}` // at its start
            : i % 4 === 2
              ? `${around[0]}${literal}` // at its end
              : `${around[0]}${literal}${around[1]}`;
      const journaled = stored(raw, output);
      forms.add(Object.keys(journaled).sort().join(','));
      expect(rawAnswer(journaled, output)).toBe(raw);
    }
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
});
