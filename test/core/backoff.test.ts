// The one retry pause (`Backoff`): its step doubles from the first pause to the ceiling and starts
// again after `reset()`; with equal jitter every pause lies in [step / 2, step], drawn from the
// injected random source, so these checks are deterministic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../src/core/index.js';

/** A random source that hands out `values` in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('Backoff', () => {
  it('without jitter: the first pause, doubling, held at the ceiling, and the first again after reset', () => {
    const backoff = new Backoff({ firstMs: 100, maxMs: 5_000, jitter: false });
    const pauses = Array.from({ length: 9 }, () => backoff.next());
    expect(pauses).toEqual([100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000]);
    backoff.reset();
    expect([backoff.next(), backoff.next()]).toEqual([100, 200]);
  });

  it('with jitter, a random of 0 gives half the step and one just under 1 the whole step', () => {
    const low = new Backoff({ firstMs: 100, maxMs: 5_000, random: () => 0 });
    expect(Array.from({ length: 8 }, () => low.next())).toEqual([
      50, 100, 200, 400, 800, 1_600, 2_500, 2_500,
    ]);
    const high = new Backoff({ firstMs: 100, maxMs: 5_000, random: () => 0.999_999 });
    expect(Array.from({ length: 8 }, () => high.next())).toEqual([
      100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000,
    ]);
    const middle = new Backoff({ firstMs: 100, maxMs: 5_000, random: () => 0.5 });
    expect([middle.next(), middle.next()]).toEqual([75, 150]);
  });

  it('every jittered pause lies in [step / 2, step] of its doubling step, never past the ceiling, whatever the draws', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
        (firstMs, maxMs, draws, resets) => {
          const backoff = new Backoff({ firstMs, maxMs, random: sequence(...draws) });
          let step = Math.min(firstMs, maxMs);
          for (const reset of resets) {
            if (reset) {
              backoff.reset();
              step = Math.min(firstMs, maxMs);
            }
            expect(backoff.step).toBe(step);
            const pause = backoff.next();
            expect(Number.isInteger(pause)).toBe(true);
            expect(pause).toBeGreaterThanOrEqual(step / 2);
            expect(pause).toBeLessThanOrEqual(step);
            expect(pause).toBeLessThanOrEqual(maxMs);
            step = Math.min(maxMs, step * 2);
          }
        },
      ),
    );
  });

  it('draws from the injected random source once per pause, and only with jitter on', () => {
    let draws = 0;
    const random = () => {
      draws++;
      return 0.25;
    };
    const jittered = new Backoff({ firstMs: 400, maxMs: 5_000, random });
    expect([jittered.next(), jittered.next()]).toEqual([250, 500]);
    expect(draws).toBe(2);
    const plain = new Backoff({ firstMs: 400, maxMs: 5_000, jitter: false, random });
    plain.next();
    expect(draws).toBe(2);
  });

  it('holds a random source outside [0, 1) to the bounds', () => {
    const over = new Backoff({ firstMs: 100, maxMs: 5_000, random: () => 7 });
    const under = new Backoff({ firstMs: 100, maxMs: 5_000, random: () => -3 });
    expect([over.next(), under.next()]).toEqual([100, 50]);
  });

  it('starts at the ceiling when the first pause is above it, and refuses numbers that are no pause', () => {
    expect(new Backoff({ firstMs: 60_000, maxMs: 30_000, jitter: false }).next()).toBe(30_000);
    expect(new Backoff({ firstMs: 0, maxMs: 100, jitter: false }).next()).toBe(0);
    for (const [firstMs, maxMs] of [
      [-1, 100],
      [Number.NaN, 100],
      [100, Number.POSITIVE_INFINITY],
      [100, -5],
    ] as const) {
      expect(() => new Backoff({ firstMs, maxMs })).toThrow(RangeError);
    }
  });
});
