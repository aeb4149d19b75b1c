import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import {
  analyseWindow,
  DPE_LIMITS,
  type DpeInput,
  deterministicJudge,
} from '../../src/dpe/index.js';

const CONTEXT = Array.from({ length: 40 }, (_, i) => ({
  id: `f${i}`,
  statement: `Service ${i} answers in ${i * 10} ms and stores data in PostgreSQL.`,
  source: i % 2 ? 'cso' : 'tool',
}));

const INPUT: DpeInput = {
  window_number: 3,
  text: [
    '# Services',
    'Service 4 answers in 40 ms and stores data in PostgreSQL. Service 5 answers in 70 ms.',
    'Service 6 stores data in MongoDB. Caching generally helps reads.',
    '```',
    'const x = 1;',
    '```',
  ].join('\n'),
  context: CONTEXT,
  remaining: ['service latency', 'tax law'],
  earlier: ['Service 4 answers in 40 ms and stores data in PostgreSQL.'],
};

describe('determinism', () => {
  it('gives the same bytes for the same input, whatever ran before', () => {
    const first = JSON.stringify(analyseWindow(INPUT));
    analyseWindow({ ...INPUT, text: 'Something else entirely here.', earlier: [] });
    expect(JSON.stringify(analyseWindow(structuredClone(INPUT)))).toBe(first);
  });

  it('the deterministic judge returns what analyseWindow does', async () => {
    const judge = deterministicJudge();
    expect(judge.name).toBe('deterministic');
    expect(await judge.judge(INPUT)).toEqual(analyseWindow(INPUT));
  });
});

describe('hostile input is bounded', () => {
  it('reads only the start of a huge text and says so', () => {
    const sentence = 'Service 4 answers in 40 ms and stores data in PostgreSQL. ';
    const text = sentence.repeat(Math.ceil((DPE_LIMITS.maxTextChars * 4) / sentence.length));
    const started = performance.now();
    const s = analyseWindow({ ...INPUT, text });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(s.truncated).toBe(true);
    // The one sentence once (duplicates are not claims twice), and the cut-off last one.
    expect(s.claims.length).toBeLessThanOrEqual(2);
    expect(s.claims[0]!.text).toBe(sentence.trim());
    expect(s.repetition.duplicate_sentences.length).toBeLessThanOrEqual(
      DPE_LIMITS.maxListedDuplicates,
    );
    expect(s.repetition.ngrams.length).toBeLessThanOrEqual(DPE_LIMITS.maxListedNgrams);
  });

  it('reads a subject of hundreds of names once per sentence', () => {
    // Every word a distinct name, then a copula: each sentence's subject is 200 names.
    const names = (seed: number, n: number) =>
      Array.from({ length: n }, (_, i) => `Zq${(seed * 7919 + i).toString(36)}`).join(' ');
    const statement = (seed: number) => `The ${names(seed, 200)} is drafted`;
    const context = Array.from({ length: DPE_LIMITS.maxFacts }, (_, i) => ({
      id: `f${i}`,
      statement: statement(i),
      source: 'cso',
    }));
    const text = Array.from({ length: 40 }, (_, i) => `${statement(10_000 + i)}.`).join(' ');
    const started = performance.now();
    const s = analyseWindow({ ...INPUT, text, context });
    expect(performance.now() - started).toBeLessThan(10_000);
    // Each claim names subjects no fact does: about none of them, so no contradiction.
    expect(s.claims.length).toBeGreaterThan(0);
    expect(s.contradictions).toEqual([]);
  });

  it('caps claims, facts, remaining items and earlier windows', () => {
    const text = Array.from(
      { length: 600 },
      (_, i) => `Claim number ${i} says item ${i} holds.`,
    ).join(' ');
    const context = Array.from({ length: 5_000 }, (_, i) => ({
      id: `f${i}`,
      statement: `Claim number ${i} says item ${i} holds. ${'padding '.repeat(400)}`,
      source: 'tool',
    }));
    const remaining = Array.from({ length: 1_000 }, (_, i) => `item ${i}`);
    const earlier = Array.from({ length: 500 }, () => 'word '.repeat(10_000));
    const started = performance.now();
    const s = analyseWindow({ window_number: 1, text, context, remaining, earlier });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(s.truncated).toBe(true);
    expect(s.claims).toHaveLength(DPE_LIMITS.maxClaims);
    expect(s.completeness.covered.length + s.completeness.uncovered.length).toBe(
      DPE_LIMITS.maxRemaining,
    );
    // Facts past maxFacts are not read: claim 0 is grounded in f0, and no claim in f1024+.
    expect(s.claims[0]!.fact_id).toBe('f0');
  });

  it('lets a caller lower a limit but not raise it', () => {
    const s = analyseWindow(INPUT, { limits: { maxClaims: 1, maxTextChars: 10 ** 9 } });
    expect(s.claims).toHaveLength(1);
    expect(s.truncated).toBe(true);
  });

  it('keeps explanations short whatever the fact', () => {
    const long = `The gateway answers in 5 ms ${'and more words '.repeat(200)}.`;
    const s = analyseWindow({
      ...INPUT,
      text: 'The gateway answers in 9 ms and more words.',
      context: [{ id: 'g', statement: long, source: 'tool' }],
    });
    for (const c of s.claims) expect(c.explanation.length).toBeLessThan(600);
  });
});

describe('invalid input', () => {
  it.each([
    [{ ...INPUT, window_number: -1 }, 'window_number'],
    [{ ...INPUT, window_number: 1.5 }, 'window_number'],
    [{ ...INPUT, text: 42 }, 'text'],
    [{ ...INPUT, context: 'facts' }, 'context'],
    [{ ...INPUT, context: [null] }, 'context[0]'],
    [{ ...INPUT, context: [{ id: 'a', statement: 1, source: 'x' }] }, 'context[0].statement'],
    [{ ...INPUT, remaining: [1] }, 'remaining[0]'],
    [{ ...INPUT, earlier: [{}] }, 'earlier[0]'],
  ])('refuses a wrong shape with INVALID_ARGUMENT naming the field (%#)', (bad, path) => {
    let error: unknown;
    try {
      analyseWindow(bad as unknown as DpeInput);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CanonryError);
    expect((error as CanonryError).code).toBe('INVALID_ARGUMENT');
    expect((error as CanonryError).details).toEqual({ path });
  });
});

describe('any input', () => {
  const words = fc.constantFrom(
    'The',
    'service',
    'stores',
    'data',
    'in',
    'PostgreSQL',
    'not',
    '200',
    'ms',
    '3.5',
    'GB',
    '87%',
    '1,000',
    'v2.1.0',
    'etcd',
    'however',
    '.',
    '?',
    '`code.`',
    '\n\n',
    '- ',
    '# ',
    '```\n',
  );
  const text = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.array(words, { maxLength: 80 }).map((w) => w.join(' ')),
  );
  it('never throws, keeps every share in 0–1, and is deterministic', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 6 }),
        fc.array(text, { maxLength: 3 }),
        fc.array(text, { maxLength: 2 }),
        (t, facts, remaining, earlier) => {
          const input: DpeInput = {
            window_number: 1,
            text: t,
            context: facts.map((statement, i) => ({ id: `f${i}`, statement, source: 'tool' })),
            remaining,
            earlier,
          };
          const s = analyseWindow(input);
          for (const x of [
            s.grounding_pct,
            s.quality,
            s.flow_score,
            s.completeness.score,
            s.repetition.ratio,
            s.repetition.duplicate_ratio,
            ...s.claims.map((c) => c.confidence),
          ]) {
            expect(x).toBeGreaterThanOrEqual(0);
            expect(x).toBeLessThanOrEqual(1);
          }
          expect(s.fabrication_count + s.distortion_count).toBe(s.contradictions.length);
          for (const c of s.contradictions) {
            expect(s.claims[c.claim_index]!.text).toBe(c.claim);
            if (c.kind === 'distortion') expect(c.fact_id).not.toBeNull();
          }
          expect(JSON.stringify(analyseWindow(input))).toBe(JSON.stringify(s));
        },
      ),
      { numRuns: 300, seed: 20261202 },
    );
  });
});
