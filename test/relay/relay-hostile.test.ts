import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { CanonryError } from '../../src/core/index.js';
import { rebuildProject, verifyProject } from '../../src/journal/index.js';
import { freshRuntime } from '../helpers/runtime.js';

const PROJECT = 'relay-hostile';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };

let runtime: CanonryRuntime;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
});
afterAll(async () => close());

/** Text a model or a caller could send: mostly plain, now and then any code units (lone surrogates too). */
const hostileText = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  {
    arbitrary: fc.constantFrom('', ' ', '\u0000', '\ud800', 'a\udc00b', '😀', 'x'.repeat(5_000)),
    weight: 1,
  },
  {
    arbitrary: fc
      .array(
        fc.constantFrom('the', 'port', 'is', '8080', 'we', 'chose', 'Redis', 'because', 'fast'),
        {
          minLength: 1,
          maxLength: 6,
        },
      )
      .map((w) => w.join(' ')),
    weight: 8,
  },
);
/** Ids: the state's, new ones, and now and then anything. */
const hostileId = fc.oneof(
  { arbitrary: fc.constantFrom('f_1', 'd_1', 'f_2', 'f_3', 'd_2', 'scratch_1'), weight: 8 },
  { arbitrary: hostileText, weight: 1 },
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const fact = fc.record(
  {
    fact_id: maybe(hostileId),
    statement: hostileText,
    provenance: maybe(
      fc.oneof(
        { arbitrary: fc.constantFrom('CKF', 'TOOL', 'CONVERSATION', 'DERIVED', 'USER'), weight: 9 },
        { arbitrary: fc.constant('OTHER'), weight: 1 },
      ),
    ),
    provenance_ref: maybe(hostileId),
    confidence: maybe(
      fc.oneof(
        { arbitrary: fc.constantFrom(0, 0.5, 1), weight: 9 },
        { arbitrary: fc.oneof(fc.double(), fc.constantFrom(2, -1)), weight: 1 },
      ),
    ),
    supersedes: maybe(fc.array(hostileId, { maxLength: 3 })),
  },
  { requiredKeys: ['statement'] },
);
const decision = fc.record(
  {
    decision_id: maybe(hostileId),
    choice: hostileText,
    rationale: hostileText,
    alternatives: maybe(fc.array(hostileText, { maxLength: 3 })),
    depends_on: maybe(fc.array(hostileId, { maxLength: 3 })),
    revises: maybe(hostileId),
  },
  { requiredKeys: ['choice', 'rationale'] },
);
const contribution = fc.record(
  {
    facts: fc.array(fact, { maxLength: 4 }),
    decisions: fc.array(decision, { maxLength: 3 }),
    open_questions: fc.array(hostileText, { maxLength: 2 }),
    constraints: fc.array(hostileText, { maxLength: 2 }),
    invalidates: fc.array(hostileId, { maxLength: 1 }),
    completed: fc.array(hostileText, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

describe('completeWindow with hostile input', () => {
  it('relays or refuses with a 4xx CanonryError, and a refusal leaves nothing behind', async () => {
    const relayed: { id: string; windows: number }[] = [];
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(hostileText, contribution, async (output, given) => {
        // A session of its own (a refused revision window would hold a shared one back), with a
        // fact and a decision resting on it to revise, supersede and invalidate.
        const { session } = await runtime.relay.start(AGENT, {
          mode: 'AGENTIC',
          objective: 'Survive what is sent',
          remaining: ['f_1', 'd_1'],
        });
        const id = session.session_id;
        await runtime.relay.completeWindow(AGENT, id, 'Setup.', {
          facts: [{ fact_id: 'f_1', statement: 'the port is 8080' }],
          decisions: [
            {
              decision_id: 'd_1',
              choice: 'use 8080',
              rationale: 'it is free',
              depends_on: ['f_1'],
            },
          ],
        });
        const before = await runtime.journal.head(PROJECT);
        try {
          const window = await runtime.relay.completeWindow(AGENT, id, output, given);
          // Relayed, or (a state that cannot be repaired) to be generated again or halted.
          expect(['relayed', 'regenerate', 'halted']).toContain(window.status);
          relayed.push({ id, windows: (await runtime.relay.state(AGENT, id)).windows });
        } catch (error) {
          expect(error).toBeInstanceOf(CanonryError);
          const e = error as CanonryError;
          expect(e.status, `${e.code}: ${e.message}`).toBeGreaterThanOrEqual(400);
          expect(e.status, `${e.code}: ${e.message}`).toBeLessThan(500);
          expect(e.code).not.toBe('NOT_CANONICALIZABLE');
          expect(await runtime.journal.head(PROJECT)).toEqual(before);
          expect((await runtime.relay.state(AGENT, id)).windows).toBe(1);
          refused++;
        }
      }),
      { numRuns: 200 },
    );
    // Both outcomes were exercised, not only one.
    expect(relayed.length).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
    expect((await verifyProject(runtime.journal, PROJECT)).broken).toBeNull();
    // What was relayed verifies, and rebuilds from the journal to the same windows.
    await rebuildProject(runtime.journal, PROJECT);
    for (const { id, windows } of relayed) {
      expect((await runtime.relay.state(AGENT, id)).windows).toBe(windows);
      expect(await runtime.relay.verify(AGENT, id)).toMatchObject({ ok: true, windows });
    }
  }, 120_000);
});
