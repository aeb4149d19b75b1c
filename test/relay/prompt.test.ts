import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonryError, canonicalize, countTokens } from '../../src/core/index.js';
import {
  CONTRIBUTION_SCHEMA,
  CONTRIBUTION_SCHEMA_NAME,
} from '../../src/relay/contribution-schema.js';
import { buildWindowPrompt, type WindowSlice, windowModelRequest } from '../../src/relay/prompt.js';
import type { Decision, EstablishedFact, GoalState } from '../../src/relay/types.js';

const goal: GoalState = {
  mode: 'DOCUMENT',
  objective: 'write section 3: storage',
  remaining: ['section 3: storage', 'section 4: operations'],
  success_test: 'section covers durability, backups and the database choice',
  completion: 0.4,
};

function fact(id: string, statement: string, confidence: number, window = 1): EstablishedFact {
  return {
    fact_id: id,
    statement,
    provenance: 'USER',
    provenance_ref: 'turn_1',
    confidence,
    window_origin: window,
  };
}

function decision(id: string, choice: string, depends_on: string[], window = 1): Decision {
  return {
    decision_id: id,
    choice,
    rationale: `because of ${depends_on.join(' and ') || 'nothing'}`,
    alternatives: ['MongoDB'],
    depends_on,
    revisable: true,
    window_origin: window,
  };
}

const slice: WindowSlice = {
  facts: [
    fact('fact_acid', 'The workload requires ACID transactions.', 0.9, 1),
    fact('fact_team', 'The team has run PostgreSQL for years.', 0.4, 2),
    fact('fact_weather', 'It rained on the day of the kick-off meeting.', 0.4, 1),
  ],
  decisions: [
    decision('decision_db_choice', 'PostgreSQL', ['fact_acid']),
    decision('decision_backup', 'nightly backups', [], 2),
  ],
  constraints: ['Data must stay in the EU.', 'No vendor lock-in.'],
  open_questions: ['Which region hosts the replica?', 'Is the budget approved?'],
};

function userJson(content: string, heading: string): unknown {
  const start = content.indexOf(heading) + heading.length + 1;
  const end = content.indexOf('\n\n##', start);
  return JSON.parse(content.slice(start, end === -1 ? undefined : end));
}

describe('buildWindowPrompt', () => {
  it('sends the rules with the schema, then the goal and the slice as JSON', () => {
    const prompt = buildWindowPrompt({ goal, slice });
    const [system, user] = prompt.messages;
    expect(system?.role).toBe('system');
    expect(JSON.parse(system!.content.slice(system!.content.lastIndexOf('\n') + 1))).toEqual(
      CONTRIBUTION_SCHEMA,
    );
    expect(user?.role).toBe('user');
    expect(userJson(user!.content, '## Goal of this window')).toEqual(goal);
    expect(userJson(user!.content, '## State (the CSO slice, JSON)')).toEqual({
      established_facts: slice.facts,
      decisions: slice.decisions,
      constraints: slice.constraints,
      open_questions: slice.open_questions,
    });
    expect(user!.content).not.toContain('Quality packet');
    expect(user!.content).not.toContain('Revision');
    expect(prompt.over_budget).toBe(false);
    expect(prompt.dropped).toEqual({
      facts: [],
      decisions: [],
      constraints: [],
      open_questions: [],
      iap: false,
    });
  });

  it('counts tokens with the o200k tokenizer: the parts and the exact total', () => {
    const prompt = buildWindowPrompt({ goal, slice, iap: 'Watch for: unsourced numbers.' });
    const total = prompt.messages.reduce((n, m) => n + countTokens(m.content), 0);
    expect(prompt.tokens.total).toBe(total);
    expect(prompt.tokens.iap).toBe(countTokens('Watch for: unsourced numbers.'));
    expect(prompt.tokens.schema).toBe(countTokens(canonicalize(CONTRIBUTION_SCHEMA)));
    for (const part of ['goal', 'state', 'rules'] as const) {
      expect(prompt.tokens[part]).toBeGreaterThan(0);
    }
    expect(
      prompt.tokens.rules + prompt.tokens.schema + prompt.tokens.goal + prompt.tokens.state,
    ).toBeLessThan(total);
    expect(prompt.messages[1]?.content).toContain(
      '## Quality packet (feedback on earlier windows)\nWatch for: unsourced numbers.',
    );
  });

  it('counts the state once and still gives the exact counts, whatever the items hold', () => {
    // Text that stresses the tokenizer's pre-splitting where the prompt is cut: newlines, `\r`,
    // slashes, spaces, punctuation, digits, letters of several scripts, emoji.
    const text = fc.string({
      unit: fc.constantFrom(...'\n\r/ \t.,;:}{"[]-_0123456789aZéß你🙂'),
      maxLength: 40,
    });
    const items = <T>(item: fc.Arbitrary<T>) => fc.array(item, { maxLength: 6 });
    fc.assert(
      fc.property(
        items(fc.tuple(text, fc.integer({ min: 0, max: 9 }))),
        items(text),
        items(text),
        items(text),
        fc.option(text, { nil: null }),
        fc.boolean(),
        (facts, choices, constraints, questions, iap, revising) => {
          const made = {
            facts: facts.map(([statement, n], i) => fact(`f${i}`, statement, n / 10)),
            decisions: choices.map((choice, i) => decision(`d${i}`, choice, [])),
            constraints,
            open_questions: questions,
          };
          const prompt = buildWindowPrompt({
            goal,
            slice: made,
            iap,
            revision:
              revising && made.decisions[0] && made.facts[0]
                ? { decision: made.decisions[0], newFact: made.facts[0], dependents: made.facts }
                : null,
          });
          const [system, user] = prompt.messages.map((m) => m.content);
          expect(prompt.tokens.total).toBe(countTokens(system!) + countTokens(user!));
          const heading = '## State (the CSO slice, JSON)\n';
          const start = user!.indexOf(heading) + heading.length;
          const end = user!.indexOf('\n\n## ', start);
          expect(prompt.tokens.state).toBe(
            countTokens(user!.slice(start, end === -1 ? undefined : end)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps item lines by object across windows: the same prompt and exact counts as fresh copies', () => {
    const text = fc.string({
      unit: fc.constantFrom(...'\n\r/ .,"{}[]-0123456789aZé你🙂'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.array(text, { maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 31 }), { minLength: 3, maxLength: 3 }),
        (statements, choices, seeds) => {
          // Window 1 sees the items in one order; window 2 the same objects shuffled and cut,
          // so an item that ended its list (`\n`) may now sit inside it (`,\n`), and back.
          const facts = statements.map((s, i) => fact(`f${i}`, s, 0.5));
          const decisions = choices.map((c, i) => decision(`d${i}`, c, []));
          const order = <T>(list: T[], seed: number) =>
            list
              .map((item, i) => ({ item, key: (i * 2654435761 + seed) % 4093 }))
              .sort((a, b) => a.key - b.key)
              .map((x) => x.item)
              .slice(0, Math.max(1, list.length - (seed % 3)));
          const first = { facts, decisions, constraints: [], open_questions: [] };
          const second = {
            facts: order(facts, seeds[0]!),
            decisions: order(decisions, seeds[1]!),
            constraints: ['Data must stay in the EU.'],
            open_questions: [],
          };
          buildWindowPrompt({ goal, slice: first });
          const reused = buildWindowPrompt({ goal, slice: second });
          const fresh = buildWindowPrompt({ goal, slice: structuredClone(second) });
          expect(reused).toEqual(fresh);
          const [system, user] = reused.messages.map((m) => m.content);
          expect(reused.tokens.total).toBe(countTokens(system!) + countTokens(user!));
          const budget = reused.tokens.total - 1 - (seeds[2]! % 40);
          const cut = buildWindowPrompt({ goal, slice: second, budget: { maxTokens: budget } });
          const cutFresh = buildWindowPrompt({
            goal,
            slice: structuredClone(second),
            budget: { maxTokens: budget },
          });
          expect(cut).toEqual(cutFresh);
          const cutUser = cut.messages[1]!.content;
          expect(cut.tokens.total).toBe(countTokens(system!) + countTokens(cutUser));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives a revision window the decision, its rationale, the new fact and the dependents', () => {
    const newFact = fact('fact_mongo', 'The team is migrating to a Mongo-native stack.', 1, 5);
    const dependent = decision('decision_orm', 'use Prisma with PostgreSQL', [
      'decision_db_choice',
    ]);
    const prompt = buildWindowPrompt({
      goal: { ...goal, objective: 'revise decision decision_db_choice given new fact fact_mongo' },
      slice,
      revision: { decision: slice.decisions[0]!, newFact, dependents: [dependent] },
    });
    const [system, user] = prompt.messages;
    expect(system?.content).toContain('`revises` = "decision_db_choice"');
    expect(
      userJson(user!.content, '## Revision: the decision, the new fact, the dependents'),
    ).toEqual({ decision: slice.decisions[0], new_fact: newFact, dependents: [dependent] });
    expect(prompt.tokens.revision).toBeGreaterThan(0);
  });

  it('drops whole items in the documented order to meet the budget, never the goal', () => {
    const full = buildWindowPrompt({ goal, slice, iap: 'Quality packet text.' });
    const tokensOf = (budget: number) =>
      buildWindowPrompt({
        goal,
        slice,
        iap: 'Quality packet text.',
        budget: { maxTokens: budget },
      });

    // A little over: the last open question goes first.
    const one = tokensOf(full.tokens.total - 1);
    expect(one.dropped.open_questions).toEqual(['Is the budget approved?']);
    expect(one.dropped.facts).toEqual([]);
    expect(one.tokens.total).toBeLessThanOrEqual(full.tokens.total - 1);

    // Tighter: every question, then facts — unreferenced, low confidence, oldest first — then the IAP.
    const fixed = buildWindowPrompt({
      goal,
      slice: { facts: [], decisions: [], constraints: [], open_questions: [] },
    }).tokens.total;
    const tight = tokensOf(fixed + 120);
    expect(tight.dropped.open_questions).toHaveLength(2);
    expect(tight.dropped.facts.slice(0, 2)).toEqual(['fact_weather', 'fact_team']);
    expect(tight.tokens.total).toBeLessThanOrEqual(fixed + 120);
    expect(tight.over_budget).toBe(false);

    // Below what the goal and the rules need: everything droppable goes, the goal stays.
    const starved = tokensOf(10);
    expect(starved.over_budget).toBe(true);
    expect(starved.dropped).toEqual({
      facts: ['fact_weather', 'fact_team', 'fact_acid'],
      decisions: ['decision_db_choice', 'decision_backup'],
      constraints: ['No vendor lock-in.', 'Data must stay in the EU.'],
      open_questions: ['Is the budget approved?', 'Which region hosts the replica?'],
      iap: true,
    });
    expect(userJson(starved.messages[1]!.content, '## Goal of this window')).toEqual(goal);
  });

  it('asks for the contribution schema as structured output', () => {
    const prompt = buildWindowPrompt({ goal, slice });
    const request = windowModelRequest(prompt, { maxTokens: 4096 });
    expect(request).toEqual({
      messages: prompt.messages,
      schema: { name: CONTRIBUTION_SCHEMA_NAME, schema: CONTRIBUTION_SCHEMA },
      temperature: 0,
      maxTokens: 4096,
    });
  });

  it('is deterministic', () => {
    const a = buildWindowPrompt({ goal, slice, budget: { maxTokens: 900 } });
    const b = buildWindowPrompt({ goal, slice, budget: { maxTokens: 900 } });
    expect(a).toEqual(b);
  });

  it.each([
    ['no goal', { slice }],
    ['no slice lists', { goal, slice: { facts: [] } }],
    ['a bad budget', { goal, slice, budget: { maxTokens: 0 } }],
    ['a huge IAP', { goal, slice, iap: 'x'.repeat(70_000) }],
    [
      'too many items',
      { goal, slice: { ...slice, open_questions: Array.from({ length: 5_000 }, () => 'q?') } },
    ],
  ])('refuses %s with INVALID_ARGUMENT', (_, input) => {
    expect(() => buildWindowPrompt(input as never)).toThrow(CanonryError);
    try {
      buildWindowPrompt(input as never);
    } catch (error) {
      expect((error as CanonryError).code).toBe('INVALID_ARGUMENT');
    }
  });
});
