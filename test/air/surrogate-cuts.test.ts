import { describe, expect, it } from 'vitest';
import { airStep, initialAirState } from '../../src/air/index.js';
import { analyseWindow, DPE_LIMITS } from '../../src/dpe/index.js';

const EMOJI = '\u{1F600}';
/** A statement with an emoji whose first half is the last code unit a cut to `at` (… added) keeps. */
const statementCutAt = (at: number) => {
  const head = 'The cache holds 32 GB in Redis for the billing service ';
  return `${head}${'x'.repeat(at - 2 - head.length)}${EMOJI} and more words follow here.`;
};

/** Every string in a JSON value is well-formed UTF-16 (no half of a surrogate pair). */
function wellFormed(value: unknown): boolean {
  return (
    JSON.stringify(value, (_, v) => {
      if (typeof v === 'string' && !v.isWellFormed()) throw new Error(`lone surrogate in ${v}`);
      return v;
    }) !== undefined
  );
}

describe('quoted texts are cut between characters, never inside one', () => {
  it('keeps the DPE explanations and AIR packet, injection and state well-formed', () => {
    for (const at of [DPE_LIMITS.maxQuoteChars, 300]) {
      const fact = { id: 'f_cache', statement: statementCutAt(at), source: 'cso' };
      const claim = statementCutAt(at).replace('32', '48');
      const signals = analyseWindow({
        window_number: 1,
        text: `${claim} ${statementCutAt(at).replace('32', '64')}`,
        context: [fact],
        remaining: [`${'y'.repeat(at - 2)}${EMOJI} goal`],
        earlier: [],
      });
      expect(signals.distortion_count).toBeGreaterThan(0);
      expect(wellFormed(signals)).toBe(true);
      const step = airStep(
        initialAirState(),
        { signals, context: [fact], task: { objective: `${'z'.repeat(at - 2)}${EMOJI}` } },
        { mode: 'aggressive', iap_budget: 16_384 },
      );
      expect(step.injection).not.toBeNull();
      expect(wellFormed(step.packet)).toBe(true);
      expect(wellFormed(step.state)).toBe(true);
      expect(step.injection!.isWellFormed()).toBe(true);
    }
  });
});
