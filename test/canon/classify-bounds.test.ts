// The classifier output rules, enforced in code for every classifier: never `verified`, never more
// confidence or a stronger status than the author's role allows. The rule table of
// src/canon/classify/README.md, case by case; the scripted classifier always inside it (a property);
// a model's out-of-bounds answer refused with its reason code; and intake refusing an out-of-bounds
// classification from any classifier, on a real runtime, writing nothing but the archive.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ArchivedMessage,
  Classification,
  Classifier,
  ClassifierInput,
  MessageRole,
  ProposalDraft,
} from '../../src/canon/classification.js';
import {
  authorBounds,
  boundIssues,
  CLASSIFY_FAILURES,
  citesSource,
  ModelClassifier,
  ScriptedClassifier,
} from '../../src/canon/classify/index.js';
import { intake } from '../../src/canon/index.js';
import type { ConfidenceState, ObjectStatus, Role } from '../../src/canon/types.js';
import { CanonryError } from '../../src/core/index.js';
import { modelError, ScriptedModel } from '../../src/models/index.js';
import { COLOUR_SUBJECTS, message } from '../fixtures/models/classify-inputs.js';
import {
  CANON_ENGINES,
  canonState,
  type EngineRuntime,
  expectCode,
  PROJECT,
  principals,
} from '../helpers/canon.js';

const PLAIN = 'Blue is the accent colour.';
const CITED = 'According to the contrast audit, blue passes AA.';
const LINKED = 'Blue passes AA, see https://example.test/audit for the numbers.';

function from(text: string, role: MessageRole, actorRole: Role): ArchivedMessage {
  return { ...message(text, role), actor_role: actorRole };
}

function draftOf(
  text: string,
  confidence: ConfidenceState,
  status: ObjectStatus,
  intent: ProposalDraft['intent'] = 'create',
): ProposalDraft {
  return {
    object_id: 'ui.accent',
    intent,
    candidate: {
      object_type: 'fact',
      title: 'Accent',
      text,
      shape: null,
      confidence_state: confidence,
      status,
      visibility: 'project',
      sources: [{ span: [0, text.length] }],
      dependency_refs: [],
      effective_from: null,
      effective_until: null,
      tags: [],
    },
    rationale: 'test',
  };
}

const codes = (issues: readonly string[]) => issues.map((i) => i.split(':')[0]);

describe('the rule table', () => {
  // [role, principal role, text, confidence, status, expected reason codes]
  const table: [MessageRole, Role, string, ConfidenceState, ObjectStatus, string[]][] = [
    // A person (user or system, from an owner or editor): asserted and active at most, sourced with a citation.
    ['user', 'owner', PLAIN, 'asserted', 'active', []],
    ['system', 'editor', PLAIN, 'asserted', 'active', []],
    ['user', 'editor', PLAIN, 'uncertain', 'disputed', []],
    ['user', 'owner', PLAIN, 'sourced', 'active', ['over_confident']],
    ['user', 'owner', CITED, 'sourced', 'active', []],
    ['user', 'owner', LINKED, 'sourced', 'active', []],
    ['user', 'owner', CITED, 'verified', 'active', ['no_verification']],
    ['user', 'owner', PLAIN, 'asserted', 'superseded', ['over_status']],
    ['user', 'owner', PLAIN, 'asserted', 'retired', ['over_status']],
    // A machine (assistant, agent or tool message, or anything an agent sent): inferred and provisional.
    ['assistant', 'owner', PLAIN, 'inferred', 'provisional', []],
    ['assistant', 'owner', PLAIN, 'asserted', 'provisional', ['over_confident']],
    ['assistant', 'owner', PLAIN, 'inferred', 'active', ['over_status']],
    ['agent', 'agent', PLAIN, 'asserted', 'active', ['over_confident', 'over_status']],
    ['agent', 'agent', PLAIN, 'sourced', 'provisional', ['over_confident']],
    ['agent', 'agent', CITED, 'sourced', 'provisional', []],
    ['agent', 'agent', CITED, 'verified', 'provisional', ['no_verification']],
    ['agent', 'agent', PLAIN, 'uncertain', 'disputed', []],
    ['tool', 'owner', LINKED, 'sourced', 'provisional', []],
    ['tool', 'owner', PLAIN, 'asserted', 'provisional', ['over_confident']],
    ['tool', 'agent', PLAIN, 'inferred', 'active', ['over_status']],
  ];
  for (const [role, actor, text, confidence, status, expected] of table) {
    it(`${role} (${actor}) ${confidence} ${status}${text === PLAIN ? '' : ' citing'}: ${expected.join(', ') || 'allowed'}`, () => {
      const issues = boundIssues(
        { drafts: [draftOf(text, confidence, status)] },
        from(text, role, actor),
      );
      expect(codes(issues)).toEqual(expected);
      for (const code of codes(issues)) expect(CLASSIFY_FAILURES).toContain(code);
    });
  }

  it('retired only with intent retire', () => {
    const m = from(PLAIN, 'user', 'owner');
    expect(boundIssues({ drafts: [draftOf(PLAIN, 'asserted', 'retired', 'retire')] }, m)).toEqual(
      [],
    );
  });

  it('the bounds by author, and what counts as a citation', () => {
    expect(authorBounds({ role: 'user', actor_role: 'owner' })).toMatchObject({
      machine: false,
      confidence: 'asserted',
    });
    expect(authorBounds({ role: 'user', actor_role: 'agent' })).toMatchObject({ machine: true });
    expect(authorBounds({ role: 'tool', actor_role: 'owner' }).statuses).toEqual([
      'provisional',
      'disputed',
    ]);
    expect([CITED, LINKED, 'Source: the 2024 audit.', PLAIN].map(citesSource)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('the scripted classifier stays inside the table', () => {
  const withFactRule = new ScriptedClassifier({
    ...COLOUR_SUBJECTS,
    rules: [{ outcome: 'candidate_fact', cues: ['per the style guide'] }],
  });

  it('a configured fact cue is not a citation: asserted from a person, inferred from a machine', async () => {
    const text = 'Per the style guide, the colour is violet.';
    for (const [role, confidence] of [
      ['user', 'asserted'],
      ['assistant', 'inferred'],
    ] as const) {
      const result = await withFactRule.classify({ message: message(text, role), canon: [] });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value.drafts.map((d) => d.candidate.confidence_state)).toEqual([confidence]);
    }
    const cited = 'Per the style guide, see https://example.test/guide, the colour is violet.';
    const result = await withFactRule.classify({ message: message(cited, 'agent'), canon: [] });
    expect(result.ok && result.value.drafts[0]?.candidate.confidence_state).toBe('sourced');
  });

  it('for any message and any author (property)', async () => {
    const words = [
      'red',
      'blue',
      'violet',
      'colour',
      'according to',
      'https://x.test/a',
      'we decided',
      'must',
      'prefer',
      'maybe',
      'wrong',
      'restore',
      'instead',
      'I propose',
      'per the style guide',
      'the',
      'is',
      '.',
      '?',
      '\n',
    ];
    const text = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 24 })
      .map((w) => w.join(' '));
    const author = fc.constantFrom(
      ['user', 'owner'],
      ['user', 'editor'],
      ['system', 'owner'],
      ['assistant', 'owner'],
      ['agent', 'agent'],
      ['tool', 'agent'],
      ['tool', 'owner'],
    ) as fc.Arbitrary<[MessageRole, Role]>;
    await fc.assert(
      fc.asyncProperty(text, author, async (t, [role, actor]) => {
        const m = from(t, role, actor);
        const result = await withFactRule.classify({ message: m, canon: [] });
        expect(result.ok).toBe(true);
        if (result.ok) expect(boundIssues(result.value, m)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe('a model classifier refuses out-of-bounds answers, and reports outages as outages', () => {
  const text = 'The accent is blue.';
  const answer = (confidence: string, status: string) =>
    JSON.stringify({
      outcome: 'candidate_fact',
      touched: ['ui.accent'],
      rationale: 'r',
      drafts: [
        {
          object_id: 'ui.accent',
          intent: 'create',
          supersedes: [],
          rationale: 'r',
          candidate: {
            object_type: 'fact',
            title: 'Accent',
            text,
            confidence_state: confidence,
            status,
            visibility: 'project',
            sources: [{ span: [0, text.length], quote: text }],
            dependency_refs: [],
            effective_from: null,
            effective_until: null,
            tags: [],
          },
        },
      ],
    });
  const classify = (reply: string, role: MessageRole) =>
    new ModelClassifier(new ScriptedModel([{ match: () => true, respond: () => reply }])).classify({
      message: message(text, role),
      canon: [],
    });

  it('verified, over-confident and over-status drafts fail with their codes', async () => {
    for (const [reply, role, code] of [
      [answer('verified', 'active'), 'user', 'no_verification'],
      [answer('asserted', 'provisional'), 'agent', 'over_confident'],
      [answer('inferred', 'active'), 'assistant', 'over_status'],
    ] as const) {
      const result = await classify(reply, role);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(codes(result.issues)).toEqual([code]);
        expect(result.outage).toBeUndefined();
      }
    }
    expect((await classify(answer('inferred', 'provisional'), 'agent')).ok).toBe(true);
  });

  it('an unreachable or busy model is a failed result carrying the typed outage', async () => {
    for (const code of ['MODEL_UNAVAILABLE', 'MODEL_BUSY'] as const) {
      const down = new ModelClassifier({
        route: 'down',
        complete: async () => {
          throw modelError(code, 'down: no', 'down', { retry_after_s: 3 });
        },
      });
      const result = await down.classify({ message: message(text), canon: [] });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.outage?.code).toBe(code);
        expect(result.outage?.details).toMatchObject({ retry_after_s: 3 });
        expect(codes(result.issues)).toEqual([
          code === 'MODEL_BUSY' ? 'model_busy' : 'model_unavailable',
        ]);
      }
    }
  });
});

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(
    `intake holds every classifier to the table (${engine.name})`,
    () => {
      let env: EngineRuntime;
      beforeAll(async () => {
        env = await engine.open();
      });
      afterAll(() => env?.close());
      const { owner, agent } = principals();

      /** A classifier that answers whatever it is told to: no prompt, no checks of its own. */
      function rogue(confidence: ConfidenceState, status: ObjectStatus): Classifier {
        return {
          name: 'rogue',
          classify: async ({ message: m }: ClassifierInput) => ({
            ok: true,
            value: {
              outcome: 'candidate_fact',
              touched: ['ui.accent'],
              drafts: [draftOf(m.text, confidence, status)],
              rationale: 'rogue',
              classifier: 'rogue',
            } satisfies Classification,
          }),
        };
      }

      it('out of bounds: CLASSIFIER_FAILED naming the message; only the archive is written', async () => {
        for (const [who, confidence, status, code] of [
          [owner, 'verified', 'active', 'no_verification'],
          [agent, 'asserted', 'provisional', 'over_confident'],
          [agent, 'inferred', 'active', 'over_status'],
        ] as const) {
          const before = await canonState(env.runtime);
          const id = `rogue-${code}`;
          const error = await expectCode(
            intake(env.runtime.canon, rogue(confidence, status), who, {
              text: PLAIN,
              message_id: id,
            }),
            'CLASSIFIER_FAILED',
          );
          expect(error.details).toMatchObject({ message_id: id, classifier: 'rogue' });
          expect(codes(error.details?.issues as string[])).toEqual([code]);
          const after = await canonState(env.runtime);
          expect(after.objects).toEqual(before.objects);
          expect(after.proposals).toEqual(before.proposals);
          expect(after.messages).toHaveLength(before.messages.length + 1);
          // The archive, then the failure, journaled so the message can be classified again.
          expect(after.head.seq).toBe(before.head.seq + 2);
          const [failure] = await env.runtime.journal.read(PROJECT, {
            after: after.head.seq - 1,
            limit: 1,
          });
          expect(failure).toMatchObject({
            kind: 'canon.classification_failed',
            body: { message_id: id, code: 'CLASSIFIER_FAILED', classifier: 'rogue' },
          });
          expect(codes((failure!.body as { issues: string[] }).issues)).toEqual([code]);
        }
      });

      it('in bounds: the same classifier makes its proposal; a thrown outage names the message', async () => {
        const result = await intake(env.runtime.canon, rogue('inferred', 'provisional'), agent, {
          text: 'We will use blue for the accent.',
          message_id: 'rogue-ok',
        });
        expect(result.proposals).toHaveLength(1);
        expect(result.proposals[0]).toMatchObject({ ok: true });
        // A thrown outage from any classifier is answered as the outage, naming the message.
        const thrower: Classifier = {
          name: 'thrower',
          classify: async () => {
            throw modelError('MODEL_BUSY', 'busy', 'x', { retry_after_s: 2 });
          },
        };
        const error = await intake(env.runtime.canon, thrower, owner, {
          text: 'Anything.',
          message_id: 'rogue-busy',
        }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CanonryError);
        expect(error).toMatchObject({
          code: 'MODEL_BUSY',
          details: { message_id: 'rogue-busy', retry_after_s: 2 },
        });
      });
    },
  );
}
