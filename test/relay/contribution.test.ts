import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError, contentHash } from '../../src/core/index.js';
import { checkContribution, parseContribution } from '../../src/relay/contribution.js';
import {
  CONTRIBUTION_LIMITS,
  CONTRIBUTION_SCHEMA,
  CONTRIBUTION_SCHEMA_NAME,
} from '../../src/relay/contribution-schema.js';

const HASH = contentHash({ cpu: 0.87 });

function answer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    output: 'We chose PostgreSQL because the workload requires ACID transactions.',
    facts: [
      {
        fact_id: 'fact_acid',
        statement: ' The workload requires ACID transactions. ',
        provenance: 'USER',
        provenance_ref: 'turn_3',
        confidence: 0.9,
        supersedes: [],
      },
      {
        fact_id: null,
        statement: 'The team knows PostgreSQL.',
        provenance: null,
        provenance_ref: null,
        confidence: null,
        supersedes: ['fact_old'],
      },
    ],
    decisions: [
      {
        decision_id: 'decision_db_choice',
        choice: 'PostgreSQL',
        rationale: 'ACID transactions and operational expertise',
        alternatives: ['MongoDB', 'DynamoDB'],
        depends_on: ['fact_acid'],
        revisable: true,
        provenance: null,
        provenance_ref: null,
        revises: null,
      },
    ],
    open_questions: ['Which PostgreSQL version?'],
    resolved_questions: [],
    constraints: ['Data must stay in the EU.'],
    completed: ['choose a database'],
    invalidates: [],
    tool_results: [{ scratch_id: 'scratch_1', tool: 'metrics', result_hash: HASH, summary: 'ok' }],
    ...overrides,
  };
}

function refusal(run: () => unknown): CanonryError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CanonryError);
    return error as CanonryError;
  }
  throw new Error('expected a refusal');
}

describe('CONTRIBUTION_SCHEMA', () => {
  it('is strict-mode shaped: every object closed with every property required', () => {
    expect(CONTRIBUTION_SCHEMA_NAME).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (schema.type === 'object') {
        expect(schema.additionalProperties).toBe(false);
        expect(schema.required).toEqual(Object.keys(schema.properties as object));
      }
      for (const child of Object.values(schema)) walk(child);
    };
    walk(CONTRIBUTION_SCHEMA);
  });
});

describe('parseContribution', () => {
  it('maps a valid answer onto a Contribution: nulls dropped, texts trimmed', () => {
    const { output, contribution } = parseContribution(JSON.stringify(answer()));
    expect(output).toBe('We chose PostgreSQL because the workload requires ACID transactions.');
    expect(contribution.facts).toEqual([
      {
        fact_id: 'fact_acid',
        statement: 'The workload requires ACID transactions.',
        provenance: 'USER',
        provenance_ref: 'turn_3',
        confidence: 0.9,
      },
      { statement: 'The team knows PostgreSQL.', supersedes: ['fact_old'] },
    ]);
    expect(contribution.decisions[0]).toEqual({
      decision_id: 'decision_db_choice',
      choice: 'PostgreSQL',
      rationale: 'ACID transactions and operational expertise',
      alternatives: ['MongoDB', 'DynamoDB'],
      depends_on: ['fact_acid'],
      revisable: true,
    });
    expect(contribution.tool_results[0]?.result_hash).toBe(HASH);
    expect(contribution.completed).toEqual(['choose a database']);
  });

  it('accepts an answer inside a ```json fence', () => {
    const fenced = `\`\`\`json\n${JSON.stringify(answer())}\n\`\`\``;
    expect(parseContribution(fenced).contribution.facts).toHaveLength(2);
  });

  it.each([
    ['not JSON', '{"output": ', '/'],
    ['an array', '[]', '/'],
    ['a missing list', JSON.stringify({ ...answer(), constraints: undefined }), '/constraints'],
    ['an unknown field', JSON.stringify(answer({ mood: 'good' })), '/mood'],
    [
      'a bad provenance',
      JSON.stringify(answer({ facts: [{ ...(answer().facts as object[])[0], provenance: 'X' }] })),
      '/facts/0/provenance',
    ],
    [
      'an empty statement',
      JSON.stringify(answer({ facts: [{ ...(answer().facts as object[])[0], statement: '  ' }] })),
      '/facts/0/statement',
    ],
    [
      'a confidence above 1',
      JSON.stringify(answer({ facts: [{ ...(answer().facts as object[])[0], confidence: 1.5 }] })),
      '/facts/0/confidence',
    ],
    [
      'a repeated id',
      JSON.stringify(
        answer({
          decisions: [{ ...(answer().decisions as object[])[0], decision_id: 'fact_acid' }],
        }),
      ),
      '/decisions/0/decision_id',
    ],
    [
      'a bad result hash',
      JSON.stringify(
        answer({
          tool_results: [{ scratch_id: 's', tool: 't', result_hash: 'md5:x', summary: 'y' }],
        }),
      ),
      '/tool_results/0/result_hash',
    ],
    [
      'too many items',
      JSON.stringify(answer({ constraints: Array.from({ length: 257 }, (_, i) => `c${i}`) })),
      '/constraints',
    ],
    [
      'too many alternatives',
      JSON.stringify(
        answer({
          decisions: [
            {
              ...(answer().decisions as object[])[0],
              alternatives: Array.from({ length: 33 }, (_, i) => `a${i}`),
            },
          ],
        }),
      ),
      '/decisions/0/alternatives',
    ],
    ['a padded id', JSON.stringify(answer({ invalidates: [' fact_acid'] })), '/invalidates/0'],
    // A JSON \ud800 escape decodes to a lone surrogate, which no journal entry can hold.
    [
      'a lone surrogate in the output',
      JSON.stringify(answer({ output: 'done \ud800' })),
      '/output',
    ],
    [
      'a lone surrogate in a statement',
      JSON.stringify(
        answer({ facts: [{ ...(answer().facts as object[])[0], statement: 'cut \udc00 off' }] }),
      ),
      '/facts/0/statement',
    ],
    [
      'a lone surrogate in an alternative',
      JSON.stringify(
        answer({
          decisions: [{ ...(answer().decisions as object[])[0], alternatives: ['Mongo\ud83d'] }],
        }),
      ),
      '/decisions/0/alternatives/0',
    ],
    [
      'a lone surrogate in a question',
      JSON.stringify(answer({ open_questions: ['\ud800?'] })),
      '/open_questions/0',
    ],
  ])('refuses %s as MODEL_OUTPUT_INVALID naming the path', (_, raw, field) => {
    const error = refusal(() => parseContribution(raw));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.status).toBe(422);
    if (field !== '/') expect(error.details?.field).toBe(field);
    expect(error.message).toContain(field === '/' ? 'the window contribution' : field);
  });

  it('refuses an answer naming a member twice, in the answer or a fact, naming the member', () => {
    const text = JSON.stringify(answer());
    // JSON.parse would keep the last: a fact the model stated, then one it took back.
    for (const [raw, member] of [
      [text.replace('"facts":', '"facts":[],"facts":'), 'facts'],
      [text.replace('"confidence":0.9', '"confidence":0.1,"confidence":0.9'), 'confidence'],
      [
        `\`\`\`json\n${text.replace('{"output":', '{"\\u006futput":"x","output":')}\n\`\`\``,
        'output',
      ],
    ] as const) {
      expect(raw).not.toBe(text);
      const error = refusal(() => parseContribution(raw));
      expect(error.code).toBe('MODEL_OUTPUT_INVALID');
      expect(error.message).toBe(
        `the window contribution: an object names member "${member}" twice`,
      );
      expect(error.details).toEqual({ member });
    }
  });

  it('refuses hostile sizes before walking them', () => {
    const huge = 'x'.repeat(CONTRIBUTION_LIMITS.maxRawChars + 1);
    expect(refusal(() => parseContribution(huge)).code).toBe('MODEL_OUTPUT_INVALID');
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(refusal(() => parseContribution(deep)).message).toMatch(/nested deeper/);
    const wide = `{"output":"x","open_questions":[${'"q",'.repeat(100_000)}"q"]}`;
    expect(refusal(() => parseContribution(wide)).code).toBe('MODEL_OUTPUT_INVALID');
    const longOutput = JSON.stringify(answer({ output: 'o'.repeat(300_000) }));
    expect(refusal(() => parseContribution(longOutput)).details?.field).toBe('/output');
  });

  it('leaves prototypes alone: a __proto__ member is an unknown field', () => {
    const raw = JSON.stringify(answer()).replace(
      '{"output"',
      '{"__proto__":{"polluted":1},"output"',
    );
    expect(refusal(() => parseContribution(raw)).details?.field).toBe('/__proto__');
    const nested = JSON.stringify(answer()).replace(
      '"statement":" The',
      '"__proto__":{"polluted":1},"statement":" The',
    );
    expect(refusal(() => parseContribution(nested)).details?.field).toBe('/facts/0/__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws nothing but CanonryError for random JSON and random text', () => {
    const anyJson = fc.oneof(
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify({ ...answer(), facts: [v] })),
      fc
        .record({ statement: fc.jsonValue(), fact_id: fc.jsonValue() })
        .map((f) => JSON.stringify({ ...answer(), facts: [f] })),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), anyJson), (raw) => {
        try {
          parseContribution(raw);
        } catch (error) {
          if (!(error instanceof CanonryError) || error.code !== 'MODEL_OUTPUT_INVALID')
            throw error;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('checkContribution', () => {
  it('fills absent lists and keeps only what was given', () => {
    const contribution = checkContribution({
      facts: [{ statement: 'etcd v3.5 is deployed.', fact_id: 'fact_etcd' }],
      decisions: [{ choice: 'v3.5 TLS syntax', rationale: 'etcd v3.5 is deployed', revises: null }],
    });
    expect(contribution).toEqual({
      facts: [{ statement: 'etcd v3.5 is deployed.', fact_id: 'fact_etcd' }],
      decisions: [
        {
          choice: 'v3.5 TLS syntax',
          rationale: 'etcd v3.5 is deployed',
          alternatives: [],
          depends_on: [],
        },
      ],
      open_questions: [],
      resolved_questions: [],
      constraints: [],
      completed: [],
      invalidates: [],
      tool_results: [],
    });
  });

  it('refuses a bad value with INVALID_BODY (or the code asked for)', () => {
    expect(refusal(() => checkContribution({ facts: [{}] })).details?.field).toBe(
      '/facts/0/statement',
    );
    expect(refusal(() => checkContribution('x')).code).toBe('INVALID_BODY');
    const asked = refusal(() => checkContribution({ output: 'x' }, { code: 'INVALID_ARGUMENT' }));
    expect(asked.code).toBe('INVALID_ARGUMENT');
    expect(asked.details?.field).toBe('/output');
  });

  it('turns a hostile getter into a CanonryError', () => {
    const hostile = {
      get facts(): never {
        throw new TypeError('boom');
      },
    };
    expect(refusal(() => checkContribution(hostile)).code).toBe('INVALID_BODY');
  });

  it('throws nothing but CanonryError for random values', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.dictionary(fc.constantFrom('facts', 'decisions', 'constraints', 'x'), fc.anything()),
        ),
        (value) => {
          try {
            checkContribution(value);
          } catch (error) {
            if (!(error instanceof CanonryError) || error.code !== 'INVALID_BODY') throw error;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('checkContribution: hostile sizes', () => {
  it('refuses long lists inside items before the schema walks them', () => {
    const alternatives = new Array(2_000_000).fill('x');
    const error = refusal(() =>
      checkContribution({ decisions: [{ choice: 'a', rationale: 'b', alternatives }] }),
    );
    expect(error.details?.field).toBe('/decisions/0/alternatives');
    const facts = new Array(1_000_000).fill({ statement: 'x' });
    expect(refusal(() => checkContribution({ facts })).details?.field).toBe('/facts');
  });
});
