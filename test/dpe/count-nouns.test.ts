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
