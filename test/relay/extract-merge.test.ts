import { describe, expect, it } from 'vitest';
import {
  captures,
  comparable,
  extractFromText,
  mergeExtracted,
  normaliseStatement,
} from '../../src/relay/extract/index.js';
import type { Contribution } from '../../src/relay/types.js';
import { contribution } from './cso-fixtures.js';

const EMPTY: Contribution = contribution();

const TEXT = [
  'The workload requires ACID transactions.',
  'etcd v3.5 is deployed on every node.',
  'The backup runs nightly at 02:00 UTC.',
  'We chose PostgreSQL because the workload requires ACID transactions, rejecting MongoDB.',
  'Which region hosts the replica?',
  'Is the budget approved?',
].join(' ');

describe('normaliseStatement and captures', () => {
  it('ignores case, white space and trailing punctuation', () => {
    expect(normaliseStatement('  The  Sky\nis BLUE!!  ')).toBe('the sky is blue');
    expect(normaliseStatement('"Quoted."')).toBe('quoted');
  });

  it('captures by normal form or by 60% of the claim’s content words', () => {
    const claim = comparable('etcd v3.5 is deployed on every node.');
    expect(captures(comparable('ETCD V3.5 is deployed on every node'), claim)).toBe(true);
    expect(captures(comparable('Every node runs etcd v3.5 (deployed).'), claim)).toBe(true);
    expect(captures(comparable('etcd v3.4 is deployed.'), claim)).toBe(false);
  });
});

describe('mergeExtracted', () => {
  const extracted = extractFromText(TEXT, { window_number: 3 });

  it('adds what the model missed and reports it as uncaptured', () => {
    const model: Contribution = {
      ...EMPTY,
      facts: [
        {
          fact_id: 'fact_acid',
          statement: 'the workload requires acid transactions',
          confidence: 1,
        },
      ],
      open_questions: ['Which region hosts the replica'],
      resolved_questions: [],
    };
    const merged = mergeExtracted(model, extracted);
    expect(merged.uncaptured).toEqual([
      'etcd v3.5 is deployed on every node.',
      'The backup runs nightly at 02:00 UTC.',
      'We chose PostgreSQL because the workload requires ACID transactions, rejecting MongoDB.',
    ]);
    // The model's fact wins over the extracted duplicate (its id and confidence are kept).
    expect(merged.contribution.facts[0]).toEqual(model.facts[0]);
    expect(merged.contribution.facts.map((f) => f.statement)).toEqual([
      'the workload requires acid transactions',
      'etcd v3.5 is deployed on every node.',
      'The backup runs nightly at 02:00 UTC.',
    ]);
    expect(merged.contribution.decisions).toEqual([
      {
        choice: 'PostgreSQL',
        rationale: 'the workload requires ACID transactions',
        alternatives: ['MongoDB'],
        depends_on: [],
      },
    ]);
    expect(merged.contribution.open_questions).toEqual([
      'Which region hosts the replica',
      'Is the budget approved?',
    ]);
    expect(merged.added).toEqual({ facts: 2, decisions: 1, open_questions: 1 });
    expect(merged.overflow).toBe(0);
  });

  it('keeps the model’s decision when it has the same choice, and its rationale', () => {
    const model: Contribution = {
      ...EMPTY,
      decisions: [
        {
          decision_id: 'decision_db_choice',
          choice: 'postgresql',
          rationale: 'ops expertise',
          alternatives: [],
        },
      ],
    };
    const merged = mergeExtracted(model, extracted);
    expect(merged.contribution.decisions).toEqual(model.decisions);
    expect(merged.added.decisions).toBe(0);
  });

  it('counts a claim captured by a decision of the model as captured', () => {
    const model: Contribution = {
      ...EMPTY,
      decisions: [
        {
          choice: 'PostgreSQL',
          rationale: 'the workload requires ACID transactions',
          alternatives: ['MongoDB'],
        },
      ],
    };
    const merged = mergeExtracted(model, extracted);
    expect(merged.uncaptured).not.toContain(
      'We chose PostgreSQL because the workload requires ACID transactions, rejecting MongoDB.',
    );
    expect(merged.uncaptured).not.toContain('The workload requires ACID transactions.');
  });

  it('does not reopen a question the model resolved', () => {
    const merged = mergeExtracted(
      { ...EMPTY, resolved_questions: ['is the budget approved'] },
      extracted,
    );
    expect(merged.contribution.open_questions).toEqual(['Which region hosts the replica?']);
  });

  it('never grows a list past 256 items: the rest is overflow', () => {
    const full: Contribution = {
      ...EMPTY,
      facts: Array.from({ length: 256 }, (_, i) => ({ statement: `Fact number ${i} holds.` })),
    };
    const merged = mergeExtracted(full, extracted);
    expect(merged.contribution.facts).toHaveLength(256);
    expect(merged.overflow).toBe(3);
  });
});
