import { describe, expect, it } from 'vitest';
import { blocksOf, extractFromText, sentencesOf } from '../../src/relay/extract/index.js';

describe('sentencesOf', () => {
  it.each([
    ['Plain. Two sentences.', ['Plain.', 'Two sentences.']],
    ['Use it, e.g. for caching. Then stop.', ['Use it, e.g. for caching.', 'Then stop.']],
    ['That is, i.e. the default. Next one.', ['That is, i.e. the default.', 'Next one.']],
    ['Dr. Smith reviewed it. It passed.', ['Dr. Smith reviewed it.', 'It passed.']],
    ['The U.S. Army uses it. So do we.', ['The U.S. Army uses it.', 'So do we.']],
    [
      'etcd v3.5 is deployed. The API is v1.2.3 now.',
      ['etcd v3.5 is deployed.', 'The API is v1.2.3 now.'],
    ],
    [
      'CPU is at 87.5% today. It was 45.2 before.',
      ['CPU is at 87.5% today.', 'It was 45.2 before.'],
    ],
    ['See No. 5 and Fig. 3 for details. Done.', ['See No. 5 and Fig. 3 for details.', 'Done.']],
    ['It costs approx. five dollars. Cheap.', ['It costs approx. five dollars.', 'Cheap.']],
    ['Is it ready? Yes! It is.', ['Is it ready?', 'Yes!', 'It is.']],
    ['He said "stop." Then left.', ['He said "stop."', 'Then left.']],
    ['Wait... it works. Fine.', ['Wait...', 'it works.', 'Fine.']],
    ['Set `a.b. C.d` in config. Then run.', ['Set `a.b. C.d` in config.', 'Then run.']],
    ['Run ``x. `y`. Z`` now. Done.', ['Run ``x. `y`. Z`` now.', 'Done.']],
    ['An unmatched ` tick. Is text.', ['An unmatched ` tick.', 'Is text.']],
    ['Visit example.com. It is up.', ['Visit example.com.', 'It is up.']],
    ['Smith et al. found it. Good.', ['Smith et al. found it.', 'Good.']],
    ['No end punctuation', ['No end punctuation']],
    ['Line one\nline two. Next.', ['Line one line two.', 'Next.']],
  ])('%j', (text, expected) => {
    expect(sentencesOf(text)).toEqual(expected);
  });
});

describe('blocksOf', () => {
  it('splits paragraphs, list items and headings; drops fences and tables', () => {
    const text = [
      '# Design',
      'First paragraph line one',
      'and line two.',
      '',
      '- item one. Still item one.',
      '- item two',
      '1. numbered',
      '2) numbered again',
      '```ts',
      'const x = 1. // not prose.',
      '```',
      '| a | b |',
      '> quoted text here.',
      '',
      'Title',
      '=====',
    ].join('\n');
    expect(blocksOf(text)).toEqual([
      { kind: 'heading', text: 'Design' },
      { kind: 'paragraph', text: 'First paragraph line one\nand line two.' },
      { kind: 'item', text: 'item one. Still item one.' },
      { kind: 'item', text: 'item two' },
      { kind: 'item', text: 'numbered' },
      { kind: 'item', text: 'numbered again' },
      { kind: 'paragraph', text: 'quoted text here.' },
      { kind: 'heading', text: 'Title' },
    ]);
  });

  it('an unclosed fence swallows the rest (it is code until it ends)', () => {
    expect(blocksOf('Before.\n```\nThe database is PostgreSQL.\n')).toEqual([
      { kind: 'paragraph', text: 'Before.' },
    ]);
  });
});

describe('extractFromText: claims and questions', () => {
  const text = [
    '## Storage',
    '',
    'The workload requires ACID transactions. The team has run PostgreSQL for years.',
    'Which version should we target? Use the LTS release.',
    'It might be worth caching. Great! Note that Dr. Chen approved the U.S. region.',
    '',
    '```sql',
    'SELECT 1. -- The cache is warm.',
    '```',
    '',
    'The config lives in `conf.d/db.toml`. `npm test`.',
    '- The replica lag is below 2 s',
    '- Install the driver',
    'Summary:',
    'The workload requires ACID transactions.',
  ].join('\n');
  const found = extractFromText(text, { window_number: 4 });

  it('keeps declarative sentences only, once each, code aside', () => {
    expect(found.claims).toEqual([
      'The workload requires ACID transactions.',
      'The team has run PostgreSQL for years.',
      'Note that Dr. Chen approved the U.S. region.',
      'The config lives in `conf.d/db.toml`.',
      'The replica lag is below 2 s',
    ]);
  });

  it('turns questions into open-question candidates', () => {
    expect(found.open_questions).toEqual(['Which version should we target?']);
  });

  it('makes every non-decision claim a derived fact of the window', () => {
    expect(found.facts).toHaveLength(5);
    expect(found.facts[0]).toEqual({
      statement: 'The workload requires ACID transactions.',
      provenance: 'CONVERSATION',
      provenance_ref: 'window:4',
      confidence: 0.5,
    });
    expect(found.truncated).toBe(false);
  });
});

describe('extractFromText: bounds', () => {
  it('reads at most 256 KiB and says so', () => {
    const found = extractFromText(`${'The sky is blue. '.repeat(20_000)}`, { window_number: 1 });
    expect(found.truncated).toBe(true);
    expect(found.claims).toEqual(['The sky is blue.']);
  });

  it.each([
    ['dots', 'a.'.repeat(100_000)],
    ['abbreviation-like words', 'e.g. '.repeat(40_000)],
    ['dotted letters without space', 'a.b.c.d.e.f.g.h.'.repeat(12_500)],
    ['backticks', '` `` '.repeat(40_000)],
    [
      'unmatched backticks of growing runs',
      Array.from({ length: 600 }, (_, i) => '`'.repeat(i % 3 === 0 ? 1 : 2))
        .join('x ')
        .repeat(300),
    ],
    ['colons after labels', 'Decision: x. Rationale: y. '.repeat(8_000)],
    ['label-like colons', 'decision decision: '.repeat(10_000)],
    [
      'one huge sentence with connectors',
      `We chose ${'X because Y over Z rather than W, rejecting V '.repeat(4_000)}.`,
    ],
    ['one long word', 'x'.repeat(200_000)],
    ['spaces', ' '.repeat(200_000)],
    ['list markers', '- 1. '.repeat(40_000)],
    ['open parentheses', '('.repeat(200_000)],
    ['fences', '```\n'.repeat(50_000)],
  ])('terminates on 200 KiB of %s', (_, text) => {
    expect(text.length).toBeGreaterThan(150_000);
    const found = extractFromText(text, { window_number: 1 });
    expect(found.claims.length).toBeLessThanOrEqual(256);
    expect(found.decisions.length).toBeLessThanOrEqual(64);
  });
});

describe('sentencesOf: lower-case starts', () => {
  it('splits before a lower-case word, except after etc.', () => {
    expect(sentencesOf('It needs ACID. etcd v3.5 is deployed.')).toEqual([
      'It needs ACID.',
      'etcd v3.5 is deployed.',
    ]);
    expect(sentencesOf('Logs, metrics, etc. are shipped. Then etc. Next.')).toEqual([
      'Logs, metrics, etc. are shipped.',
      'Then etc.',
      'Next.',
    ]);
  });
});
