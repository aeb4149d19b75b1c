import { describe, expect, it } from 'vitest';
import {
  analyseWindow,
  type ContextFact,
  groundedClaims,
  type WindowSignals,
} from '../../src/dpe/index.js';

const CONTEXT: ContextFact[] = [
  { id: 'lat', statement: 'The checkout service has a p99 latency of 200 ms.', source: 'cso' },
  {
    id: 'k8s',
    statement: 'Kubernetes uses etcd as its distributed key-value store.',
    source: 'canon',
  },
  {
    id: 'redis',
    statement: 'Redis does not support multi-key transactions across shards.',
    source: 'tool',
  },
  { id: 'bill', statement: 'The billing service stores invoices in PostgreSQL.', source: 'cso' },
  { id: 'gw', statement: 'The API gateway rate-limits requests per client.', source: 'cso' },
  { id: 'cpu', statement: 'CPU usage on the database hosts averages 45%.', source: 'tool' },
  {
    id: 'rows',
    statement: 'The events table holds 1,000,000 rows and 3.50 GB of indexes.',
    source: 'tool',
  },
];

function one(claim: string, context: readonly ContextFact[] = CONTEXT): WindowSignals {
  return analyseWindow({ window_number: 1, text: claim, context, remaining: [], earlier: [] });
}

describe('attribution', () => {
  it.each([
    ['The checkout service has a p99 latency of 200 ms.', 'lat'],
    ['The p99 latency of the checkout service is 0.2 seconds.', 'lat'],
    ['Kubernetes relies on etcd as its distributed key-value store.', 'k8s'],
    ['The events table holds 1000000 rows and 3.5 GB of indexes.', 'rows'],
    ['The events table holds one million rows.', null],
  ])('grounds %j in the fact that supports it', (claim, fact) => {
    const s = one(claim);
    expect(s.claims).toHaveLength(1);
    if (fact === null) {
      // "one million" is not a number the engine reads ("one" is not a number word): it stays
      // a claim no fact contradicts.
      expect(s.contradictions).toEqual([]);
      return;
    }
    expect(s.claims[0]).toMatchObject({ attribution: 'CONTEXT_GROUNDED', fact_id: fact });
    expect(s.claims[0]!.confidence).toBeGreaterThanOrEqual(0.5);
    expect(s.claims[0]!.explanation).toContain(`fact ${fact}`);
    expect(s.contradictions).toEqual([]);
    expect(s.grounding_pct).toBe(1);
  });

  it('calls a specific claim no fact covers unverifiable and a general one parametric', () => {
    const s = one(
      'Cassandra replicates each partition to 3 nodes. Caching generally improves read performance for hot data.',
    );
    expect(s.claims.map((c) => [c.attribution, c.claim_type, c.fact_id])).toEqual([
      ['UNVERIFIABLE', 'quantity', null],
      ['PARAMETRIC', 'general', null],
    ]);
    expect(s.claims[0]!.explanation).toContain('"3"');
    // A capitalised first word is a name only when the context or the window spells it as one.
    expect(s.claims[0]!.explanation).not.toContain('"Cassandra"');
    expect(s.unverifiable_count).toBe(1);
    expect(s.grounding_pct).toBe(0);
  });

  it('names the nearest fact of an unsupported claim and how little it shares', () => {
    const s = one('etcd handles 10,000 writes per second.');
    expect(s.claims[0]!.attribution).toBe('UNVERIFIABLE');
    expect(s.claims[0]!.explanation).toContain('fact k8s');
    expect(s.claims[0]!.explanation).toContain('1 of 3 key words (etcd)');
  });
});

describe('distortions', () => {
  it.each([
    ['The checkout service has a p99 latency of 250 ms.', 'number', '250 ms', '200 ms', 'lat'],
    ['The checkout service has a p99 latency of 200 s.', 'unit', '200 s', '200 ms', 'lat'],
    ['CPU usage on the database hosts averages 87%.', 'number', '87%', '45%', 'cpu'],
    [
      'The events table holds 1,000,000 rows and 3.4 GB of indexes.',
      'number',
      '3.4 GB',
      '3.50 GB',
      'rows',
    ],
    [
      'The events table holds 1,000,000 rows and 3.5 MB of indexes.',
      'unit',
      '3.5 MB',
      '3.50 GB',
      'rows',
    ],
    [
      'Redis supports multi-key transactions across shards.',
      'negation',
      'affirmative',
      'negative',
      'redis',
    ],
    ['The billing service stores invoices in MongoDB.', 'entity', 'MongoDB', 'PostgreSQL', 'bill'],
    [
      'Kubernetes uses ZooKeeper as its distributed key-value store.',
      'entity',
      'ZooKeeper',
      'etcd',
      'k8s',
    ],
  ])('%j is a %s distortion', (claim, kind, claimed, expected, fact) => {
    const s = one(claim);
    expect(s.distortion_count).toBe(1);
    expect(s.fabrication_count).toBe(0);
    const c = s.contradictions[0]!;
    expect(c).toMatchObject({
      kind: 'distortion',
      contradiction: kind,
      claim_index: 0,
      claim,
      fact_id: fact,
      claimed,
      expected,
    });
    expect(c.fact).toBe(CONTEXT.find((f) => f.id === fact)!.statement);
    expect(c.explanation).toContain(`fact ${fact}`);
    expect(c.explanation).toContain(`"${claimed}"`);
    expect(s.claims[0]).toMatchObject({ attribution: 'PARAMETRIC', fact_id: fact });
  });

  it('does not call an equal value in another unit a distortion (2 s = 2000 ms, 1,000 = 1000)', () => {
    const ctx = [
      {
        id: 't',
        statement: 'A cold start of the worker takes 2 s and loads 1,000 files.',
        source: 'cso',
      },
    ];
    const s = one('A cold start of the worker takes 2000 ms and loads 1000 files.', ctx);
    expect(s.contradictions).toEqual([]);
    expect(s.claims[0]!.attribution).toBe('CONTEXT_GROUNDED');
  });

  it('grounds a claim in the one fact that agrees when another about the subject differs', () => {
    const ctx = [
      { id: 'p50', statement: 'The search endpoint median latency is 20 ms.', source: 'tool' },
      { id: 'p99', statement: 'The search endpoint tail latency is 90 ms.', source: 'tool' },
    ];
    const s = one('The search endpoint tail latency is 90 ms.', ctx);
    expect(s.claims[0]).toMatchObject({ attribution: 'CONTEXT_GROUNDED', fact_id: 'p99' });
  });

  it('pairs a count with the fact count of the same noun', () => {
    const ctx = [
      { id: 'c', statement: 'The cluster runs 3 nodes with 12 shards each.', source: 'cso' },
    ];
    const s = one('The cluster runs 3 nodes with 16 shards each.', ctx);
    expect(s.contradictions[0]).toMatchObject({
      contradiction: 'number',
      claimed: '16',
      expected: '12',
    });
  });
});

describe('fabrications', () => {
  it('flags a value stated about a subject whose fact gives none', () => {
    const s = one('The API gateway rate-limits requests to 500 per client.');
    expect(s.fabrication_count).toBe(1);
    expect(s.contradictions[0]).toMatchObject({
      kind: 'fabrication',
      contradiction: 'number',
      fact_id: 'gw',
      claimed: '500',
      expected: null,
    });
    expect(s.claims[0]).toMatchObject({ attribution: 'UNVERIFIABLE', fact_id: 'gw' });
    expect(s.contradictions[0]!.explanation).toContain('fact gw');
  });

  it('flags a named entity where the fact names none', () => {
    const ctx = [
      { id: 's', statement: 'The session service keeps sessions in a cache.', source: 'cso' },
    ];
    const s = one('The session service keeps sessions in a Memcached cache.', ctx);
    expect(s.contradictions[0]).toMatchObject({
      kind: 'fabrication',
      contradiction: 'entity',
      claimed: 'Memcached',
    });
  });
});

describe('claims', () => {
  it('are the declarative sentences once each: not questions, headings, hedges or code', () => {
    const s = one(
      '# Latency\n\nIs the cache warm? It might be slow. The checkout service has a p99 latency of 200 ms.\n\n```\nlatency = 200 ms. x = 1.\n```\n\nThe checkout service has a p99 latency of 200 ms.',
    );
    expect(s.claims.map((c) => c.text)).toEqual([
      'The checkout service has a p99 latency of 200 ms.',
    ]);
  });
});

describe('a fabrication about one subject beside a fact about its sibling', () => {
  const siblings: ContextFact[] = [
    {
      id: 'atlas',
      statement: 'The Atlas cluster runs its replicas with 32 GB of memory each.',
      source: 'cso',
    },
    {
      id: 'hydra',
      statement: 'The Hydra cluster runs its replicas on dedicated hosts.',
      source: 'cso',
    },
  ];

  it('is a fabrication about the claim’s own subject, not a distortion of the sibling’s fact', () => {
    const s = one('The Hydra cluster runs its replicas with 48 GB of memory each.', siblings);
    expect(s.contradictions).toHaveLength(1);
    expect(s.contradictions[0]).toMatchObject({ kind: 'fabrication', fact_id: 'hydra' });
    expect(s.fabrication_count).toBe(1);
    expect(s.distortion_count).toBe(0);
  });

  it('still reads a changed value of the subject’s own fact as a distortion of it', () => {
    const s = one('The Atlas cluster runs its replicas with 48 GB of memory each.', siblings);
    expect(s.contradictions[0]).toMatchObject({
      kind: 'distortion',
      contradiction: 'number',
      fact_id: 'atlas',
    });
  });
});

describe('a claim about another named subject than the fact’s', () => {
  const sections: ContextFact[] = [
    { id: 'context', statement: 'section Context is drafted', source: 'cso' },
    { id: 'constraints', statement: 'section Constraints is drafted', source: 'cso' },
  ];

  it('is not a distortion of the other subject’s fact: the context does not cover it', () => {
    const s = one('Section Decision is drafted.', sections);
    expect(s.contradictions).toEqual([]);
    expect(s.distortion_count).toBe(0);
    expect(s.claims[0]).toMatchObject({ attribution: 'UNVERIFIABLE', fact_id: null });
  });

  it('is grounded in the fact about its own subject when there is one', () => {
    const s = one('Section Constraints is drafted.', sections);
    expect(s.claims[0]).toMatchObject({ attribution: 'CONTEXT_GROUNDED', fact_id: 'constraints' });
  });

  it.each([
    // The name after the verb is the value: the claim replaces the fact's.
    [
      'The primary cache of the storefront is Memcached.',
      'The primary cache of the storefront is Redis.',
    ],
    // An article after the verb equates the two sides: one name stands where the other did.
    [
      'In production, Memcached is the primary cache of the storefront.',
      'In production, Redis is the primary cache of the storefront.',
    ],
  ])('still reads %j as an entity distortion of %j', (claim, fact) => {
    const s = one(claim, [{ id: 'cache', statement: fact, source: 'cso' }]);
    expect(s.contradictions[0]).toMatchObject({
      kind: 'distortion',
      contradiction: 'entity',
      fact_id: 'cache',
      claimed: 'Memcached',
      expected: 'Redis',
    });
  });
});

describe('groundedClaims', () => {
  it('says which claims the context grounds, reading each as one claim', () => {
    const long = `The checkout service has a p99 latency of 200 ms ${'and more '.repeat(300)}.`;
    expect(
      groundedClaims(
        [
          'We confirmed that the checkout service has a p99 latency of 0.2 seconds.',
          'The checkout service has a p99 latency of 250 ms.',
          'The moon is made of cheese.',
          long,
        ],
        CONTEXT,
      ),
    ).toEqual([true, false, false, false]);
    expect(groundedClaims([], CONTEXT)).toEqual([]);
  });

  it('reads names as the lexicon of the whole state spells them, when asked about a few facts', () => {
    const claim = 'Memcached holds the sessions of the storefront.';
    const added = [
      { id: 'sessions', statement: 'Redis holds the sessions of the storefront.', source: 'cso' },
    ];
    const state = [
      ...added,
      {
        id: 'moved',
        statement: 'The team moved from Memcached to Redis last year.',
        source: 'cso',
      },
    ];
    // Sentence-initial, neither is a name by its spelling alone: the claim reads as the fact.
    expect(groundedClaims([claim], added)).toEqual([true]);
    // The state writes both as names: the claim replaces one with the other.
    expect(groundedClaims([claim], added, { lexicon: state })).toEqual([false]);
    expect(groundedClaims([claim], state)).toEqual([false]);
  });
});
