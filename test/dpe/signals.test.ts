import { describe, expect, it } from 'vitest';
import { analyseWindow, type DpeInput, segment } from '../../src/dpe/index.js';

const input = (over: Partial<DpeInput>): DpeInput => ({
  window_number: 2,
  text: '',
  context: [],
  remaining: [],
  earlier: [],
  ...over,
});

describe('repetition', () => {
  it('counts 6-grams repeated within the window and names them', () => {
    const text =
      'The cache layer absorbs most read traffic today. Later on, the cache layer absorbs most read traffic again.';
    const s = analyseWindow(input({ text }));
    // words: 8 + 10 → 3 + 5 = 8 positions; "the cache layer absorbs most read" and
    // "cache layer absorbs most read traffic" recur once each in the second sentence.
    expect(s.repetition.ratio).toBe(0.25);
    expect(s.repetition.ngrams).toEqual([
      { ngram: 'the cache layer absorbs most read', count: 2, earlier: false },
      { ngram: 'cache layer absorbs most read traffic', count: 2, earlier: false },
    ]);
  });

  it('counts 6-grams an earlier window used, and says they are from earlier', () => {
    const earlier = ['We measured that the cache layer absorbs most read traffic.'];
    const s = analyseWindow(
      input({ text: 'Again the cache layer absorbs most read traffic.', earlier }),
    );
    // 8 words → 3 positions: "again the cache …" is new, the other two were in the earlier window.
    expect(s.repetition.ratio).toBe(0.667);
    expect(s.repetition.ngrams.every((g) => g.earlier && g.count === 1)).toBe(true);
    expect(s.repetition.ngrams.map((g) => g.ngram)).toContain(
      'cache layer absorbs most read traffic',
    );
  });

  it('finds duplicate sentences within the window and against earlier ones', () => {
    const s = analyseWindow(
      input({
        text: 'Backups run nightly at two. The index is rebuilt weekly. Backups run nightly at two!',
        earlier: ['Intro words here. The index is rebuilt weekly.'],
      }),
    );
    expect(s.repetition.duplicate_sentences).toEqual([
      { sentence: 'The index is rebuilt weekly.', earlier: true },
      { sentence: 'Backups run nightly at two!', earlier: false },
    ]);
    expect(s.repetition.duplicate_ratio).toBe(0.667);
  });

  it('is zero for a window without a 6-gram', () => {
    const s = analyseWindow(input({ text: 'Short one. Another short one.' }));
    expect(s.repetition).toEqual({
      ratio: 0,
      ngrams: [],
      duplicate_sentences: [],
      duplicate_ratio: 0,
    });
  });
});

describe('completeness', () => {
  it('covers an item when nearby sentences hold most of its key words', () => {
    const s = analyseWindow(
      input({
        text: '## Storage\n\nSessions now live in PostgreSQL. Their rows expire after a day.\n\nUnrelated closing remarks follow here.',
        remaining: [
          'Move sessions into PostgreSQL',
          'Explain how session rows expire',
          'Benchmark the search cluster',
          '—',
        ],
      }),
    );
    expect(s.completeness).toEqual({
      score: 0.5,
      covered: ['Move sessions into PostgreSQL', 'Explain how session rows expire'],
      uncovered: ['Benchmark the search cluster', '—'],
    });
  });

  it('is 1 when nothing remains', () => {
    expect(analyseWindow(input({ text: 'Anything at all here.' })).completeness.score).toBe(1);
  });
});

describe('flow', () => {
  it('is the share of adjacent sentences that share a word or open with a connective', () => {
    const connected = analyseWindow(
      input({
        text: 'The queue holds jobs for workers. Workers poll the queue every second. However, bursts overflow it.',
      }),
    );
    expect(connected.flow_score).toBe(1);
    const disjoint = analyseWindow(
      input({
        text: 'The queue holds jobs for workers. Bananas grow in warm climates. Tax law changed recently.',
      }),
    );
    expect(disjoint.flow_score).toBe(0);
  });

  it('does not count a pair across a heading', () => {
    const s = analyseWindow(
      input({ text: 'The queue holds jobs.\n\n# Other\n\nBananas grow in warm climates.' }),
    );
    expect(s.flow_score).toBe(1);
  });
});

describe('quality and counts', () => {
  it('combines the signals with the documented weights', () => {
    const s = analyseWindow(
      input({
        text: 'The checkout service has a p99 latency of 250 ms. Bananas grow in warm climates.',
        context: [
          {
            id: 'f',
            statement: 'The checkout service has a p99 latency of 200 ms.',
            source: 'cso',
          },
        ],
        remaining: ['checkout latency', 'search cluster'],
      }),
    );
    expect(s.distortion_count).toBe(1);
    expect(s.grounding_pct).toBe(0);
    expect(s.completeness.score).toBe(0.5);
    expect(s.flow_score).toBe(0);
    expect(s.repetition.ratio).toBe(0);
    // 0.2·1 + 0.3·0.5 + 0.2·(1 − 1/2) + 0.15·0 + 0.15·0
    expect(s.quality).toBe(0.45);
  });
});

describe('segment', () => {
  it('gives each sentence its kind and block, code left out', () => {
    expect(
      segment('# Title\n\nIt runs fine. Does it?\n\n```\nx. y.\n```\n- Use `npm ci` here.').map(
        (s) => [s.kind, s.block, s.text],
      ),
    ).toEqual([
      ['heading', 0, 'Title'],
      ['claim', 1, 'It runs fine.'],
      ['question', 1, 'Does it?'],
      ['imperative', 2, 'Use `npm ci` here.'],
    ]);
  });

  it('ends a sentence at "ms." after a number but not at the title Ms.', () => {
    expect(segment('Latency is 200 ms. Ms. Smith agreed.').map((s) => s.text)).toEqual([
      'Latency is 200 ms.',
      'Ms. Smith agreed.',
    ]);
  });
});
