// Numbers in a window's claims held to the facts they cite: a sign is part of its number, and a
// count belongs to its own noun.
import { describe, expect, it } from 'vitest';
import { analyseWindow } from '../../src/dpe/index.js';

const judge = (text: string, fact: string) =>
  analyseWindow({
    window_number: 1,
    text,
    context: [{ id: 'f1', statement: fact, source: 'cso' }],
    remaining: [],
    earlier: [],
  });

describe('a number keeps its sign', () => {
  it('reads a sign flip as a distortion, not as agreement', () => {
    for (const [claim, fact, claimed, expected] of [
      ['The balance is -5 dollars in Stripe.', 'The balance is 5 dollars in Stripe.', '-5', '5'],
      [
        'The freezer runs at 40 degrees in Oslo.',
        'The freezer runs at −40 degrees in Oslo.',
        '40',
        '-40',
      ],
      [
        'Latency changed by -20 ms after the Redis upgrade.',
        'Latency changed by 20 ms after the Redis upgrade.',
        '-20 ms',
        '20 ms',
      ],
    ] as const) {
      const s = judge(claim, fact);
      expect(s.claims[0]!.attribution, claim).toBe('PARAMETRIC');
      expect(s.contradictions[0], claim).toMatchObject({
        kind: 'distortion',
        contradiction: 'number',
        claimed,
        expected,
      });
    }
  });

  it('still grounds the same signed value, and leaves hyphens inside words and ranges alone', () => {
    expect(
      judge('The balance is -5 dollars in Stripe.', 'The balance is −5 dollars in Stripe.')
        .claims[0]!.attribution,
    ).toBe('CONTEXT_GROUNDED');
    expect(
      judge('The Redis cache holds 32 GB of data.', 'The Redis cache holds 32 GB of data.')
        .claims[0]!.attribution,
    ).toBe('CONTEXT_GROUNDED');
    // "5-10" is a range token and "x-5" a name: neither becomes a negative number.
    expect(
      judge(
        'Retries wait 5-10 seconds in the gateway.',
        'Retries wait 5-10 seconds in the gateway.',
      ).claims[0]!.attribution,
    ).toBe('CONTEXT_GROUNDED');
  });
});

describe('a count is held to the count of its own noun', () => {
  it('reads swapped counts as a distortion, not as agreement', () => {
    const s = judge(
      'The cluster has 3 nodes and 5 replicas.',
      'The cluster has 5 nodes and 3 replicas.',
    );
    expect(s.claims[0]!.attribution).toBe('PARAMETRIC');
    expect(s.contradictions[0]).toMatchObject({
      kind: 'distortion',
      contradiction: 'number',
      claimed: '3',
      expected: '5',
    });
  });

  it('still grounds the same counts in any order, and a count of a noun the fact does not count', () => {
    expect(
      judge('The cluster has 3 replicas and 5 nodes.', 'The cluster has 5 nodes and 3 replicas.')
        .claims[0]!.attribution,
    ).toBe('CONTEXT_GROUNDED');
    // "3 of them": the fact counts no "of", so the claim's 3 is read against any count it has.
    expect(
      judge('The cluster keeps 3 of its replicas hot.', 'The cluster keeps 3 replicas hot.')
        .claims[0]!.attribution,
    ).toBe('CONTEXT_GROUNDED');
  });
});
