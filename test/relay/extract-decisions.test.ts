import { describe, expect, it } from 'vitest';
import {
  decisionInSentence,
  extractFromText,
  splitAlternatives,
} from '../../src/relay/extract/index.js';

type Expected = { choice: string; rationale: string; alternatives: string[] };

const POSTGRES =
  'We chose PostgreSQL because the workload requires ACID transactions and the team has operational expertise, rejecting MongoDB (no multi-document ACID at the time of decision) and DynamoDB (vendor lock-in concern).';

describe('decisionInSentence: the "chose X because Y, rejecting Z" family', () => {
  it.each<[string, Expected]>([
    [
      POSTGRES,
      {
        choice: 'PostgreSQL',
        rationale: 'the workload requires ACID transactions and the team has operational expertise',
        alternatives: ['MongoDB', 'DynamoDB'],
      },
    ],
    [
      'We decided on Redis since latency matters most.',
      { choice: 'Redis', rationale: 'latency matters most', alternatives: [] },
    ],
    [
      'We selected gRPC over REST because the services stream data.',
      { choice: 'gRPC', rationale: 'the services stream data', alternatives: ['REST'] },
    ],
    [
      'We will use Terraform instead of Pulumi, as the team already knows HCL.',
      { choice: 'Terraform', rationale: 'the team already knows HCL', alternatives: ['Pulumi'] },
    ],
    [
      'I opted for a monorepo because shared types change often, rather than separate repos.',
      {
        choice: 'a monorepo',
        rationale: 'shared types change often',
        alternatives: ['separate repos'],
      },
    ],
    [
      "We've chosen Kafka due to its retention guarantees, rejecting RabbitMQ because it drops old messages.",
      { choice: 'Kafka', rationale: 'its retention guarantees', alternatives: ['RabbitMQ'] },
    ],
    [
      "We'll use etcd v3.5 because the cluster already runs it.",
      { choice: 'etcd v3.5', rationale: 'the cluster already runs it', alternatives: [] },
    ],
    [
      'After benchmarking, the team went with Rust because of predictable latency, over Go and Java.',
      {
        choice: 'Rust',
        rationale: 'predictable latency',
        alternatives: ['Go', 'Java'],
      },
    ],
    [
      'We decided to scale the cluster to 5 nodes because CPU utilisation is 87%, above the 80% threshold.',
      {
        choice: 'scale the cluster to 5 nodes',
        rationale: 'CPU utilisation is 87%, above the 80% threshold',
        alternatives: [],
      },
    ],
    [
      'We ultimately settled on SQLite since the app is single-user, not PostgreSQL or MySQL.',
      {
        choice: 'SQLite',
        rationale: 'the app is single-user',
        alternatives: ['PostgreSQL', 'MySQL'],
      },
    ],
    [
      'We are going to use Vite as it starts faster, and rejected Webpack (slow) and Parcel (plugins).',
      { choice: 'Vite', rationale: 'it starts faster', alternatives: ['Webpack', 'Parcel'] },
    ],
    [
      'We therefore picked option B given that it halves the cost.',
      { choice: 'option B', rationale: 'it halves the cost', alternatives: [] },
    ],
    [
      'We chose to cache results in memory because reads dominate, rejecting Memcached, which adds a hop.',
      {
        choice: 'cache results in memory',
        rationale: 'reads dominate',
        alternatives: ['Memcached'],
      },
    ],
    [
      'We chose the v3.5 TLS syntax (per the docs) because etcd v3.5 is deployed.',
      {
        choice: 'the v3.5 TLS syntax (per the docs)',
        rationale: 'etcd v3.5 is deployed',
        alternatives: [],
      },
    ],
  ])('%s', (sentence, expected) => {
    expect(decisionInSentence(sentence)).toEqual(expected);
  });

  it('keeps "rather than" without a comma inside the rationale', () => {
    expect(
      decisionInSentence('We chose Nix because it is declarative rather than imperative.'),
    ).toEqual({
      choice: 'Nix',
      rationale: 'it is declarative rather than imperative',
      alternatives: [],
    });
  });

  it.each([
    ['no rationale', 'We chose PostgreSQL.'],
    ['negated', "We didn't choose MongoDB because it lacks ACID."],
    ['negated with not', 'We will not use MongoDB because it lacks ACID.'],
    ['modal', 'We might use Redis because it is fast.'],
    ['should', 'We should choose Redis because it is fast.'],
    ['conditional', 'If we chose Redis because of speed, we would lose durability.'],
    ['third person', 'They chose MongoDB because it was trendy.'],
    ['someone else', 'The vendor selected Oracle because of licensing.'],
    ['present "use" without will', 'We use tabs because the linter wants them.'],
    ['no trigger', 'PostgreSQL is the database because it was there first.'],
    ['a noun "choice"', 'Our choice of PostgreSQL is because of ACID.'],
    ['a question', 'Should we pick Redis because it is fast?'],
    ['trigger inside parentheses', 'The database (we chose it because of ACID) is PostgreSQL.'],
    ['"as" that is not a reason', 'We will use PostgreSQL as the primary store.'],
    ['not a decision verb', 'We considered Redis because it is fast.'],
  ])('no decision: %s', (_, sentence) => {
    expect(decisionInSentence(sentence)).toBeNull();
  });
});

describe('splitAlternatives', () => {
  it.each([
    ['MongoDB (no ACID) and DynamoDB (lock-in)', ['MongoDB', 'DynamoDB']],
    ['Z, W', ['Z', 'W']],
    ['A, B, or C', ['A', 'B', 'C']],
    ['both X and Y', ['X', 'Y']],
    ['MySQL — weaker JSON support; SQLite: single writer', ['MySQL', 'SQLite']],
    ['Memcached, which adds a hop', ['Memcached']],
    ['', []],
  ])('%j', (phrase, names) => {
    expect(splitAlternatives(phrase)).toEqual(names);
  });
});

describe('extractFromText: decisions', () => {
  it('finds the spec §2.2 decision in prose and does not also make it a fact', () => {
    const found = extractFromText(`Intro text is here.\n\n${POSTGRES}`, { window_number: 2 });
    expect(found.decisions).toEqual([
      {
        choice: 'PostgreSQL',
        rationale: 'the workload requires ACID transactions and the team has operational expertise',
        alternatives: ['MongoDB', 'DynamoDB'],
        depends_on: [],
      },
    ]);
    expect(found.claims).toEqual(['Intro text is here.', POSTGRES]);
    expect(found.facts.map((f) => f.statement)).toEqual(['Intro text is here.']);
  });

  it.each([
    [
      'one line',
      'Decision: PostgreSQL. Rationale: ACID transactions. Alternatives: MongoDB, DynamoDB.',
    ],
    [
      'several lines',
      'Decision: PostgreSQL\nRationale: ACID transactions\nAlternatives: MongoDB, DynamoDB',
    ],
    [
      'bold labels in list items',
      '- **Decision:** PostgreSQL\n- **Rationale:** ACID transactions\n- **Alternatives:** MongoDB, DynamoDB',
    ],
    [
      'names as list items',
      'Decision: PostgreSQL\nReason: ACID transactions\nAlternatives considered:\n\n- MongoDB (no ACID)\n- DynamoDB',
    ],
  ])('reads a labelled block: %s', (_, text) => {
    const found = extractFromText(`${text}\n\nThe rest is prose here.`, { window_number: 1 });
    expect(found.decisions).toEqual([
      {
        choice: 'PostgreSQL',
        rationale: 'ACID transactions',
        alternatives: ['MongoDB', 'DynamoDB'],
        depends_on: [],
      },
    ]);
    expect(found.claims).toEqual(['The rest is prose here.']);
  });

  it('needs a rationale in a labelled block, and a label at the start', () => {
    const found = extractFromText(
      'Decision: PostgreSQL.\n\nThe reason: it is ACID. We keep going here.',
      { window_number: 1 },
    );
    expect(found.decisions).toEqual([]);
  });

  it('keeps two labelled decisions apart and drops a repeated choice', () => {
    const found = extractFromText(
      [
        'Decision: PostgreSQL. Rationale: ACID.',
        'Decision: Redis. Why: latency.',
        'Decision: postgresql. Rationale: again.',
        'We chose Redis because it is fast.',
      ].join('\n\n'),
      { window_number: 1 },
    );
    expect(found.decisions.map((d) => [d.choice, d.rationale])).toEqual([
      ['PostgreSQL', 'ACID'],
      ['Redis', 'latency'],
    ]);
  });

  it('terminates on a 200 KiB adversarial decision sentence', () => {
    const sentence = `If ${'we chose X because Y over Z rather than W, rejecting V and '.repeat(3_500)}done.`;
    expect(sentence.length).toBeGreaterThan(200_000);
    expect(decisionInSentence(sentence)).toBeNull();
    const long = `We chose ${'X because Y over Z rather than W, rejecting V (and '.repeat(3_500)}.`;
    expect(decisionInSentence(long)?.choice).toBe('X');
  });
});
