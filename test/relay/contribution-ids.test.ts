import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { freshRuntime } from '../helpers/runtime.js';

const PROJECT = 'relay-ids';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };

let runtime: CanonryRuntime;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
});
afterAll(async () => close());

async function session(): Promise<string> {
  const { session } = await runtime.relay.start(AGENT, {
    mode: 'AGENTIC',
    objective: 'Keep the ids a model names',
    remaining: ['a'],
  });
  return session.session_id;
}

/** Each contribution is refused with its field (and `code`, when given), and nothing is journaled. */
async function refusedEach(
  id: string,
  cases: readonly (readonly [unknown, string])[],
  code?: string,
): Promise<void> {
  const head = await runtime.journal.head(PROJECT);
  for (const [contribution, field] of cases) {
    await expect(
      runtime.relay.completeWindow(AGENT, id, 'Refused.', contribution),
    ).rejects.toMatchObject({ ...(code === undefined ? {} : { code }), details: { field } });
  }
  expect(await runtime.journal.head(PROJECT)).toEqual(head);
}

describe("a contribution's ids", () => {
  it('are kept as named: an item without an id never takes one the contribution uses', async () => {
    const id = await session();
    // The first fact has no id; the second is named f1.1, the id the first would otherwise get.
    const w1 = await runtime.relay.completeWindow(AGENT, id, 'Two facts and a decision.', {
      facts: [
        { statement: 'The database is Postgres' },
        { fact_id: 'f1.1', statement: 'The cache is Redis' },
      ],
      decisions: [
        {
          decision_id: 'dcache',
          choice: 'Keep sessions in the cache',
          rationale: 'The cache is Redis',
          depends_on: ['f1.1'],
        },
      ],
    });
    expect(w1.status).toBe('relayed');
    const facts = new Map(w1.cso!.established_facts.map((f) => [f.fact_id, f.statement]));
    expect(facts.get('f1.1')).toBe('The cache is Redis');
    const postgres = w1.cso!.established_facts.find((f) => f.statement.includes('Postgres'))!;
    expect(postgres.fact_id).not.toBe('f1.1');
    expect(w1.cso!.decisions.find((d) => d.decision_id === 'dcache')!.depends_on).toEqual(['f1.1']);

    // Invalidating the cache fact by its name flags the decision that rests on it, and only that.
    const w2 = await runtime.relay.completeWindow(AGENT, id, 'The cache changed.', {
      facts: [{ fact_id: postgres.fact_id, statement: 'The database is Postgres' }],
      invalidates: ['f1.1'],
    });
    expect(w2.status).toBe('relayed');
    const left = w2.cso!.established_facts.map((f) => f.fact_id);
    expect(left).toContain(postgres.fact_id);
    expect(left).not.toContain('f1.1');
    expect(w2.cso!.decisions.find((d) => d.decision_id === 'dcache')?.needs_revision).toBe(true);
  });

  it('keep a tool result its own scratch id when a fact without an id comes first', async () => {
    const id = await session();
    const w1 = await runtime.relay.completeWindow(AGENT, id, 'A fact and a tool result.', {
      facts: [{ statement: 'The region is eu-west' }],
      tool_results: [
        {
          scratch_id: 'f1.1',
          tool: 'metrics query',
          result_hash: `sha256:${'a'.repeat(64)}`,
          summary: 'CPU is at 40 percent',
        },
      ],
    });
    expect(w1.status).toBe('relayed');
    const tool = w1.cso!.established_facts.find((f) => f.provenance === 'TOOL')!;
    expect(tool.provenance_ref).toBe('f1.1');
    expect(w1.cso!.established_facts.map((f) => f.fact_id)).not.toContain('f1.1');
  });

  it('must be ids: anything else is refused with its field, and nothing is journaled', async () => {
    const id = await session();
    const cases: [unknown, string][] = [
      [{ facts: [{ fact_id: 'my fact', statement: 'A' }] }, '/facts/0/fact_id'],
      [{ facts: [{ fact_id: '__proto__', statement: 'A' }] }, '/facts/0/fact_id'],
      [
        { decisions: [{ choice: 'c', rationale: 'r', depends_on: ['a\u0000b'] }] },
        '/decisions/0/depends_on/0',
      ],
      [
        {
          tool_results: [
            {
              scratch_id: 'a b',
              tool: 'metrics',
              result_hash: `sha256:${'b'.repeat(64)}`,
              summary: 'x',
            },
          ],
        },
        '/tool_results/0/scratch_id',
      ],
      [
        { facts: [{ statement: 'B', provenance: 'DERIVED', provenance_ref: 'fact one' }] },
        '/facts/0/provenance_ref',
      ],
    ];
    // canon's name for a hashed id: as given, it could be another item's note.
    cases.push([
      { facts: [{ fact_id: `h${'0a'.repeat(12)}`, statement: 'A' }] },
      '/facts/0/fact_id',
    ]);
    await refusedEach(id, cases);
    // A reference that is not an id stays free text where it names a message or a document.
    const w1 = await runtime.relay.completeWindow(AGENT, id, 'Accepted.', {
      facts: [
        { statement: 'The SLA is 99.9', provenance: 'USER', provenance_ref: 'turn 7 of the call' },
      ],
    });
    expect(w1.status).toBe('relayed');
    expect(w1.cso!.established_facts[0]!.provenance_ref).toBe('turn 7 of the call');
  });

  it('refuse a TOOL item whose tool result is neither listed nor in the state, before anything is written', async () => {
    const id = await session();
    const unlisted = [
      [
        {
          facts: [{ statement: 'CPU is at 87 percent', provenance: 'TOOL', provenance_ref: 'm4' }],
        },
        '/facts/0/provenance_ref',
      ],
      [
        {
          decisions: [
            { choice: 'Scale out', rationale: 'CPU', provenance: 'TOOL', provenance_ref: 'm4' },
          ],
        },
        '/decisions/0/provenance_ref',
      ],
    ] as const;
    await refusedEach(id, unlisted, 'MODEL_OUTPUT_INVALID');
    // Listed in the same window, the tool result is a node and the fact rests on it.
    const metrics = {
      scratch_id: 'm4',
      tool: 'metrics',
      result_hash: `sha256:${'c'.repeat(64)}`,
      summary: 'CPU 87',
    };
    const w1 = await runtime.relay.completeWindow(AGENT, id, 'Listed.', {
      facts: [{ statement: 'CPU is at 87 percent', provenance: 'TOOL', provenance_ref: 'm4' }],
      tool_results: [metrics],
    });
    expect(w1.status).toBe('relayed');
    // Held by the state, it needs no listing again.
    const w2 = await runtime.relay.completeWindow(AGENT, id, 'Known.', {
      decisions: [
        { choice: 'Scale out', rationale: 'CPU is high', provenance: 'TOOL', provenance_ref: 'm4' },
      ],
    });
    expect(w2.status).toBe('relayed');
  });

  it('never give a new item an id the session used for one that left, and refuse one that names it', async () => {
    const id = await session();
    // Window 1 names a fact f3.1: the id window 3 would give its first fact without one.
    await runtime.relay.completeWindow(AGENT, id, 'One.', {
      facts: [
        { fact_id: 'k1', statement: 'The queue is Kafka' },
        { fact_id: 'f3.1', statement: 'The team is four people' },
      ],
    });
    const w2 = await runtime.relay.completeWindow(AGENT, id, 'Two.', {
      invalidates: ['k1', 'f3.1'],
    });
    expect(w2.cso!.established_facts.map((f) => f.fact_id)).not.toContain('k1');
    const reused = [
      [{ facts: [{ fact_id: 'k1', statement: 'The queue is NATS' }] }, '/facts/0/fact_id'],
      [
        { decisions: [{ decision_id: 'f3.1', choice: 'Hire', rationale: 'Too few people' }] },
        '/decisions/0/decision_id',
      ],
      [
        {
          tool_results: [
            {
              scratch_id: 'k1',
              tool: 'ls',
              result_hash: `sha256:${'d'.repeat(64)}`,
              summary: 'Three topics',
            },
          ],
        },
        '/tool_results/0/scratch_id',
      ],
    ] as const;
    await refusedEach(id, reused, 'MODEL_OUTPUT_INVALID');
    // A fact without an id skips f3.1, which canon still holds, instead of failing the commit.
    const w3 = await runtime.relay.completeWindow(AGENT, id, 'Three.', {
      facts: [{ statement: 'The queue is NATS' }],
    });
    expect(w3.status).toBe('relayed');
    const nats = w3.cso!.established_facts.find((f) => f.statement === 'The queue is NATS')!;
    expect(nats.fact_id).toMatch(/^f3\.\d+$/);
    expect(nats.fact_id).not.toBe('f3.1');
  });
});
