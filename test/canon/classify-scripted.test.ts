import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATION_OUTCOMES,
  type Classification,
  type ClassifierInput,
  type MessageRole,
} from '../../src/canon/classification.js';
import { BUILTIN_TIERS, ScriptedClassifier } from '../../src/canon/classify/index.js';
import type { CanonObject } from '../../src/canon/types.js';
import { CanonryError } from '../../src/core/index.js';
import { COLOUR_SUBJECTS, canonObject, message } from '../fixtures/models/classify-inputs.js';

const classifier = new ScriptedClassifier(COLOUR_SUBJECTS);
const red = canonObject('ui.colour', { title: 'Interface colour', text: 'A red interface.' });

async function classify(
  text: string,
  role: MessageRole = 'user',
  canon: CanonObject[] = [],
  using = classifier,
): Promise<Classification> {
  const result = await using.classify({ message: message(text, role), canon });
  if (!result.ok) throw new Error(result.issues.join('; '));
  return result.value;
}

/** Every draft's spans point at text of the message that is a whole, trimmed sentence. */
function expectSpansOn(text: string, c: Classification, sentence?: string): void {
  for (const draft of c.drafts) {
    for (const { span } of draft.candidate.sources) {
      expect(text.slice(span[0], span[1])).toBe(draft.candidate.text);
      if (sentence !== undefined) expect(draft.candidate.text).toBe(sentence);
    }
  }
}

describe('ScriptedClassifier: each outcome of LCSM §4', () => {
  const cases: [string, MessageRole, CanonObject[], Classification['outcome'], string | null][] = [
    ['Thanks, that sounds good.', 'user', [], 'no_effect', null],
    [
      'According to the contrast audit, blue passes WCAG AA.',
      'user',
      [red],
      'candidate_fact',
      'fact',
    ],
    ['I prefer a red palette.', 'user', [], 'candidate_preference', 'preference'],
    ['We decided to use a violet palette.', 'user', [], 'proposed_decision', 'decision'],
    ['No, red is wrong for this product.', 'user', [red], 'contradiction', 'preference'],
    ['Source: https://example.org/wcag/contrast', 'user', [], 'source', null],
    ['The build log: 41 passed, 0 failed.', 'tool', [], 'source', null],
    ['The palette must never use pure red.', 'user', [], 'instruction', 'constraint'],
    ['Always use the brand palette.', 'user', [red], 'instruction', 'instruction'],
    ['Is violet accessible enough?', 'user', [red], 'uncertainty', 'question'],
    ['I am not sure the ink colour works.', 'user', [red], 'uncertainty', 'uncertainty'],
    ['Please restore the red palette.', 'user', [red], 'restore_request', 'preference'],
    ['We now use violet instead of red.', 'user', [red], 'supersede_request', 'decision'],
  ];
  for (const [text, role, canon, outcome, type] of cases) {
    it(`${outcome}: "${text}" (${role})`, async () => {
      const c = await classify(text, role, canon);
      expect(c.outcome).toBe(outcome);
      expect(c.classifier).toBe('scripted');
      expect(c.rationale).toMatch(/^scripted: /);
      if (type === null) expect(c.drafts).toEqual([]);
      else expect(c.drafts.map((d) => d.candidate.object_type)).toEqual([type]);
      expectSpansOn(text, c, type === null ? undefined : text);
    });
  }

  it('covers every outcome', () => {
    expect(new Set(cases.map((c) => c[3]))).toEqual(new Set(CLASSIFICATION_OUTCOMES));
  });
});

describe('ScriptedClassifier: the LCSM §1 story', () => {
  it('1. "The user suggests a red interface." creates a preference, asserted and active', async () => {
    const text = 'The user suggests a red interface.';
    const c = await classify(text);
    expect(c).toMatchObject({ outcome: 'candidate_preference', touched: ['ui.colour'] });
    expect(c.drafts).toHaveLength(1);
    expect(c.drafts[0]).toMatchObject({
      object_id: 'ui.colour',
      intent: 'create',
      candidate: {
        object_type: 'preference',
        title: 'Interface colour',
        text,
        confidence_state: 'asserted',
        status: 'active',
        sources: [{ span: [0, text.length] }],
      },
    });
  });

  it('2. an assistant\'s "I propose blue for accessibility." stays a provisional suggestion', async () => {
    const c = await classify('I propose blue for accessibility.', 'assistant', [red]);
    expect(c.outcome).toBe('candidate_preference');
    expect(c.drafts[0]).toMatchObject({
      intent: 'update',
      candidate: { object_type: 'preference', confidence_state: 'inferred', status: 'provisional' },
    });
  });

  it('3. "Red is still preferred." from the user updates the preference, active', async () => {
    const c = await classify('Red is still preferred.', 'user', [red]);
    expect(c.outcome).toBe('candidate_preference');
    expect(c.drafts[0]).toMatchObject({
      intent: 'update',
      candidate: { object_type: 'preference', confidence_state: 'asserted', status: 'active' },
    });
    expect(c.rationale).toContain('"still preferred"');
  });

  it('4. "The spec adopts a dark ink and violet identity." asks to supersede the current colour', async () => {
    const c = await classify('The spec adopts a dark ink and violet identity.', 'user', [red]);
    expect(c.outcome).toBe('supersede_request');
    expect(c.drafts[0]).toMatchObject({
      object_id: 'ui.colour',
      intent: 'update',
      candidate: { object_type: 'decision', status: 'active' },
    });
    // With nothing in canon yet, the same message is a proposed decision that creates the object.
    const fresh = await classify('The spec adopts a dark ink and violet identity.');
    expect(fresh.outcome).toBe('proposed_decision');
    expect(fresh.drafts[0]?.intent).toBe('create');
  });

  it('5. an agent generating a blue component has no durable effect but touches the colour', async () => {
    const c = await classify('I generated a blue button component.', 'agent', [red]);
    expect(c).toMatchObject({ outcome: 'no_effect', touched: ['ui.colour'], drafts: [] });
  });

  it('6. "The design review rejects the blue component." is a sourced fact', async () => {
    const c = await classify('The design review rejects the blue component.', 'user', [red]);
    expect(c.outcome).toBe('candidate_fact');
    expect(c.drafts[0]?.candidate).toMatchObject({
      object_type: 'fact',
      confidence_state: 'sourced',
    });
  });
});

describe('ScriptedClassifier: spans, modality, supersession, rules', () => {
  it('the span points at the sentence that carried the cue', async () => {
    const text =
      'Thanks for the options.  I still think red is best, so red is still preferred!\nMoving on.';
    const c = await classify(text, 'user', [red]);
    expectSpansOn(text, c, 'I still think red is best, so red is still preferred!');
    const [start] = c.drafts[0]!.candidate.sources[0]!.span;
    expect(start).toBe(text.indexOf('I still'));
  });

  it('prefers the cue sentence that mentions the subject', async () => {
    const text = 'I prefer short meetings. Also, I prefer the violet palette.';
    const c = await classify(text);
    expectSpansOn(text, c, 'Also, I prefer the violet palette.');
  });

  it('assistant and agent modality never becomes a decision or a restore', async () => {
    for (const [text, role] of [
      ['We could switch to blue instead.', 'assistant'],
      ['I suggest we go back to red.', 'assistant'],
      ['I propose the spec adopts violet.', 'agent'],
    ] as const) {
      const c = await classify(text, role, [red]);
      expect(c.outcome, text).toBe('candidate_preference');
      expect(c.drafts[0]?.candidate).toMatchObject({
        status: 'provisional',
        confidence_state: 'inferred',
      });
    }
    const stated = await classify('We decided to use violet.', 'assistant');
    expect(stated.outcome).toBe('proposed_decision');
    expect(stated.drafts[0]?.candidate.status).toBe('provisional');
  });

  it('a new subject supersedes the touched current objects of the same type', async () => {
    const using = new ScriptedClassifier({
      subjects: {
        ...COLOUR_SUBJECTS.subjects,
        'ui.identity': {
          title: 'Visual identity',
          object_type: 'preference',
          keywords: ['identity'],
        },
      },
    });
    const c = await classify(
      'The violet identity replaces the red interface.',
      'user',
      [red],
      using,
    );
    expect(c.outcome).toBe('supersede_request');
    expect(c.touched).toEqual(['ui.colour', 'ui.identity']);
    expect(c.drafts).toHaveLength(1);
    expect(c.drafts[0]).toMatchObject({
      object_id: 'ui.identity',
      intent: 'supersede',
      supersedes: ['ui.colour'],
    });
  });

  it('touches canon objects by title words, without drafting for them', async () => {
    const font = canonObject('ux.font', { title: 'Body typeface', object_type: 'decision' });
    const c = await classify('The typeface must stay legible.', 'user', [font]);
    expect(c).toMatchObject({ outcome: 'instruction', touched: ['ux.font'], drafts: [] });
  });

  it('a contradiction needs an active object of the subject; it drafts a dispute', async () => {
    expect((await classify('Red is wrong.', 'user', [])).outcome).toBe('no_effect');
    const provisional = canonObject('ui.colour', {
      status: 'provisional',
      title: 'Interface colour',
    });
    expect((await classify('Red is wrong.', 'user', [provisional])).outcome).toBe('no_effect');
    const c = await classify('Red is wrong.', 'user', [red]);
    expect(c.drafts[0]).toMatchObject({ intent: 'dispute', candidate: { status: 'disputed' } });
  });

  it('configured rules come before the built-in cues', async () => {
    const using = new ScriptedClassifier({
      ...COLOUR_SUBJECTS,
      rules: [
        { outcome: 'no_effect', cues: ['just brainstorming'] },
        { outcome: 'proposed_decision', cues: ['ship it'], object_type: 'plan' },
      ],
    });
    const quiet = await classify('Just brainstorming: we must use red.', 'user', [], using);
    expect(quiet).toMatchObject({ outcome: 'no_effect', drafts: [] });
    const ship = await classify('Violet palette, ship it.', 'user', [], using);
    expect(ship.outcome).toBe('proposed_decision');
    expect(ship.drafts[0]?.candidate.object_type).toBe('plan');
  });

  it('matches whole words only', async () => {
    expect((await classify('The credit card form is mustard coloured.')).touched).toEqual([]);
    expect((await classify('Nevermind.')).outcome).toBe('no_effect');
  });

  it('touches by title word across a large canon: exactly the objects with a word of the message', async () => {
    // 8,000 objects (compiling a pattern a title took seconds here), titles from a vocabulary whose
    // words each go to known objects; the message's words decide which, by the scenario alone.
    const vocabulary = ['kafka', 'etcd', 'quorum', 'ledger', 'window', 'straße', 'κόσμος', '2026'];
    const others = (i: number) => `item${i}`;
    const canon = Array.from({ length: 8_000 }, (_, i) =>
      canonObject(`n.${i}`, {
        // One word of the vocabulary, a word of its own, a stopword and a short word.
        title: `${i % 3 === 0 ? vocabulary[i % vocabulary.length]!.toUpperCase() : vocabulary[i % vocabulary.length]} ${others(i)} with the`,
      }),
    );
    const touching = (words: readonly string[], own: readonly number[] = []) =>
      canon
        .filter((_, i) => words.includes(vocabulary[i % vocabulary.length]!) || own.includes(i))
        .map((o) => o.object_id)
        .sort();
    const cases: [string, string[], number[]][] = [
      // Case-insensitive, either way round; a word of one object's own.
      ['The Kafka QUORUM was lost at item17.', ['kafka', 'quorum'], [17]],
      // Stopwords, short words, a word inside a longer one or joined by `_` touch nothing.
      ['With the ledgers and deploy_window, nothing else.', [], []],
      // Folded: `STRASSE` is `straße`, a final sigma is a sigma; digits are words too.
      ['Die STRASSE, κόσμοσ and 2026.', ['straße', 'κόσμος', '2026'], []],
      // A word every eighth title holds, and the word of each: the whole vocabulary at once.
      [vocabulary.join(' '), vocabulary, []],
    ];
    for (const [text, words, own] of cases) {
      expect((await classify(text, 'user', canon)).touched).toEqual(touching(words, own));
    }
  });

  it('validates its config', () => {
    expect(
      () =>
        new ScriptedClassifier({
          subjects: { x: { title: 'X', object_type: 'colour', keywords: [] } },
        }),
    ).toThrow(CanonryError);
    expect(() => new ScriptedClassifier({ subjects: {}, extra: 1 })).toThrow(
      /invalid scripted classifier config/,
    );
    expect(
      () =>
        new ScriptedClassifier({
          subjects: { x: { title: 'X', object_type: 'fact', keywords: [' '] } },
        }),
    ).toThrow(/keywords/);
    expect(new ScriptedClassifier().config).toEqual({ subjects: {} });
  });

  it('bad input is a failed result, not a throw', async () => {
    const result = await classifier.classify({ message: {} } as unknown as ClassifierInput);
    expect(result).toMatchObject({ ok: false, issues: [expect.stringMatching(/^bad_input: /)] });
  });
});

const ROLES: MessageRole[] = ['user', 'assistant', 'agent', 'tool', 'system'];
const WORDS = [
  ...BUILTIN_TIERS.flatMap((t) => t.cues),
  ...COLOUR_SUBJECTS.subjects['ui.colour'].keywords,
  'interface',
  'could',
  'I propose',
  '.',
  '?',
  '!',
  '\n',
  '  ',
  'Red.',
  'https://x.org',
];
const messages = fc.record({
  text: fc
    .array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12, unit: 'binary' })), {
      maxLength: 30,
    })
    .map((parts) => parts.join(' ')),
  role: fc.constantFrom(...ROLES),
  withCanon: fc.boolean(),
});

describe('ScriptedClassifier: properties', () => {
  it('random messages never throw, give a valid outcome and point spans at their sentence', async () => {
    await fc.assert(
      fc.asyncProperty(messages, async ({ text, role, withCanon }) => {
        const result = await classifier.classify({
          message: message(text, role),
          canon: withCanon ? [red] : [],
        });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(CLASSIFICATION_OUTCOMES).toContain(result.value.outcome);
        for (const draft of result.value.drafts) {
          expect(result.value.touched).toContain(draft.object_id);
          const [start, end] = draft.candidate.sources[0]!.span;
          expect(0 <= start && start < end && end <= text.length).toBe(true);
          expect(text.slice(start, end)).toBe(draft.candidate.text);
          expect(draft.candidate.text).toBe(draft.candidate.text.trim());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic: classifying twice (or with a new instance) gives identical output', async () => {
    await fc.assert(
      fc.asyncProperty(messages, async ({ text, role, withCanon }) => {
        const input = { message: message(text, role), canon: withCanon ? [red] : [] };
        const once = await classifier.classify(input);
        const twice = await classifier.classify(input);
        const fresh = await new ScriptedClassifier(COLOUR_SUBJECTS).classify(input);
        expect(twice).toEqual(once);
        expect(fresh).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });
});
