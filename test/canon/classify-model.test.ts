import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClassifierInput } from '../../src/canon/classification.js';
import {
  CLASSIFICATION_SCHEMA,
  CLASSIFICATION_SCHEMA_NAME,
  CLASSIFY_FAILURES,
  ModelClassifier,
  type ModelClassifierOptions,
  ScriptedClassifier,
} from '../../src/canon/classify/index.js';
import { canonicalize } from '../../src/core/index.js';
import {
  type ModelPort,
  type ModelRequest,
  OpenAIModel,
  RecordingModel,
  ReplayModel,
  ScriptedModel,
} from '../../src/models/index.js';
import { canonObject, message } from '../fixtures/models/classify-inputs.js';
import {
  completion,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';

const TEXT = 'Red is still preferred. Blue fails contrast.';
const SENTENCE = 'Red is still preferred.';
const red = canonObject('ui.colour', { title: 'Interface colour', text: 'A red interface.' });
const input: ClassifierInput = { message: message(TEXT), canon: [red] };

type Json = Record<string, any>;

function draft(overrides: Json = {}, candidate: Json = {}): Json {
  return {
    object_id: 'ui.colour',
    intent: 'update',
    supersedes: [],
    rationale: 'the user restates the preference',
    ...overrides,
    candidate: {
      object_type: 'preference',
      title: 'Interface colour',
      text: SENTENCE,
      confidence_state: 'asserted',
      status: 'active',
      visibility: 'project',
      sources: [{ span: [0, SENTENCE.length], quote: SENTENCE }],
      dependency_refs: [],
      effective_from: null,
      effective_until: null,
      tags: [],
      ...candidate,
    },
  };
}

function output(drafts: Json[] = [draft()], extra: Json = {}): string {
  return JSON.stringify({
    outcome: 'candidate_preference',
    touched: ['ui.colour'],
    drafts,
    rationale: 'a preference',
    ...extra,
  });
}

/** A model that answers `text` and remembers the requests it saw. */
function answering(text: string): { model: ModelPort; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const respond = (request: ModelRequest): string => {
    seen.push(request);
    return text;
  };
  const model = new ScriptedModel([{ match: () => true, respond }]);
  return { model, seen };
}

async function reasons(
  text: string,
  options: ModelClassifierOptions = {},
  using = input,
): Promise<readonly string[]> {
  const result = await new ModelClassifier(answering(text).model, options).classify(using);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues;
}

describe('ModelClassifier over a scripted model', () => {
  it('returns the checked classification, named after the route', async () => {
    const result = await new ModelClassifier(answering(output()).model).classify(input);
    expect(result).toEqual({
      ok: true,
      value: {
        outcome: 'candidate_preference',
        touched: ['ui.colour'],
        drafts: [
          {
            object_id: 'ui.colour',
            intent: 'update',
            rationale: 'the user restates the preference',
            candidate: {
              ...draft().candidate,
              shape: null,
              sources: [{ span: [0, SENTENCE.length] }],
            },
          },
        ],
        rationale: 'a preference',
        classifier: 'model:scripted',
      },
    });
  });

  it('shows a canon larger than the prompt holds by what the message bears on, then by id', async () => {
    // 300 objects whose ids sort before the ones the message is about.
    const filler = Array.from({ length: 300 }, (_, i) =>
      canonObject(`a.filler.${String(i).padStart(3, '0')}`, {
        title: `Filler ${i}`,
        text: 'Unrelated.',
      }),
    );
    const colour = canonObject('z.ui.colour', { title: 'Interface colour', text: 'Red.' });
    const named = canonObject('z.named', { title: 'Nothing in common', text: 'Named by id.' });
    const shownIds = (system: string) =>
      system
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l).id as string);
    const { model, seen } = answering(output());
    await new ModelClassifier(model).classify({
      message: message('The interface colour is wrong; see z.named too.'),
      canon: [named, ...filler, colour],
    });
    const system = seen[0]?.messages[0]?.content ?? '';
    const ids = shownIds(system);
    // The two the message bears on, then the first 198 others by id; sorted by id as always.
    const expected = [...filler.slice(0, 198).map((o) => o.object_id), 'z.named', 'z.ui.colour'];
    expect(ids).toEqual(expected);
    expect(system).toContain('(102 more objects not shown)');
    // A canon that fits is shown whole, by id, whatever the message says.
    const small = answering(output());
    await new ModelClassifier(small.model).classify({
      message: message('The interface colour is wrong.'),
      canon: [colour, ...filler.slice(0, 150)],
    });
    expect(shownIds(small.seen[0]?.messages[0]?.content ?? '')).toEqual([
      ...filler.slice(0, 150).map((o) => o.object_id),
      'z.ui.colour',
    ]);
  });

  it('picks the objects a message bears on by whole, case-folded title words, as the scripted classifier touches them', async () => {
    const filler = Array.from({ length: 300 }, (_, i) =>
      canonObject(`a.filler.${String(i).padStart(3, '0')}`, { title: `Filler ${i}`, text: 'x.' }),
    );
    const street = canonObject('z.street', { title: 'Straße closures', text: 'Closed.' });
    const window = canonObject('z.window', { title: 'Release window', text: 'Friday.' });
    const cosmos = canonObject('z.cosmos', { title: 'Κόσμος', text: 'Greek.' });
    const text = 'The STRASSE is shut, the deploy_window moved, and κόσμοσ too.';
    const { model, seen } = answering(output());
    await new ModelClassifier(model).classify({
      message: message(text),
      canon: [...filler, street, window, cosmos],
    });
    const ids = (seen[0]?.messages[0]?.content ?? '')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l).id as string);
    // Folded words bear (STRASSE is straße, a final sigma is a sigma); `window` joined by `_` to
    // another word is not a word of the message. The rest of the 200 are the first fillers by id.
    expect(ids).toEqual([...filler.slice(0, 198).map((o) => o.object_id), 'z.cosmos', 'z.street']);
    // The scripted classifier touches the same two.
    const scripted = await new ScriptedClassifier().classify({
      message: message(text),
      canon: [...filler, street, window, cosmos],
    });
    expect(scripted.ok && scripted.value.touched).toEqual(['z.cosmos', 'z.street']);
  });

  it('prompts with the outcomes, the rule that it never decides, the canon and the message', async () => {
    const { model, seen } = answering(output());
    await new ModelClassifier(model).classify(input);
    const [request] = seen;
    expect(request?.schema).toEqual({
      name: CLASSIFICATION_SCHEMA_NAME,
      schema: CLASSIFICATION_SCHEMA,
    });
    expect(request?.temperature).toBe(0);
    const system = request?.messages[0]?.content ?? '';
    expect(request?.messages[0]?.role).toBe('system');
    expect(system).toContain('You propose; you never decide.');
    expect(system).toContain('- supersede_request:');
    expect(system).toContain(
      canonicalize({
        id: 'ui.colour',
        type: 'preference',
        status: 'active',
        confidence: 'asserted',
        title: 'Interface colour',
        text: 'A red interface.',
      }),
    );
    expect(JSON.parse(request?.messages[1]?.content ?? '')).toEqual({
      message: { role: 'user', actor_role: 'owner', length: TEXT.length, text: TEXT },
    });
  });

  it('supersede and create drafts that name real objects pass; quotes re-align wrong offsets', async () => {
    const supersede = draft(
      { object_id: 'ui.identity', intent: 'supersede', supersedes: ['ui.colour'] },
      {
        sources: [{ span: [3, 9], quote: 'Blue fails contrast.' }],
      },
    );
    const result = await new ModelClassifier(answering(output([supersede])).model).classify(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.touched).toEqual(['ui.colour', 'ui.identity']);
    expect(result.value.drafts[0]?.supersedes).toEqual(['ui.colour']);
    const [start, end] = result.value.drafts[0]!.candidate.sources[0]!.span;
    expect(TEXT.slice(start, end)).toBe('Blue fails contrast.');
  });

  it('accepts JSON inside one Markdown fence', async () => {
    const result = await new ModelClassifier(
      answering(`\`\`\`json\n${output()}\n\`\`\``).model,
    ).classify(input);
    expect(result.ok).toBe(true);
  });
});

describe('ModelClassifier treats model output as untrusted', () => {
  const cases: [string, string, ModelClassifierOptions?][] = [
    ['not_json: ', 'Sure! Here is the classification.'],
    ['not_json: ', `${'['.repeat(100)}${']'.repeat(100)}`],
    ['schema: / fails "required"', JSON.stringify({ outcome: 'no_effect' })],
    [
      'schema: /drafts/0/candidate fails "additionalProperties"',
      output([draft({}, { message_id: 'm-9' })]),
    ],
    [
      'schema: /drafts/0/candidate/sources/0/span/1 fails "type"',
      output([draft({}, { sources: [{ span: [0, 2.5], quote: 'Re' }] })]),
    ],
    ['bad_enum: /outcome "decree"', output(undefined, { outcome: 'decree' })],
    [
      'bad_enum: /drafts/0/candidate/object_type "colour"',
      output([draft({}, { object_type: 'colour' })]),
    ],
    ['bad_enum: /drafts/0/intent "delete"', output([draft({ intent: 'delete' })])],
    [
      'bad_span: /drafts/0/candidate/sources/0/span [0, 999] is outside the message',
      output([draft({}, { sources: [{ span: [0, 999], quote: SENTENCE }] })]),
    ],
    [
      'bad_span: /drafts/0/candidate/sources/0/span [5, 5]',
      output([draft({}, { sources: [{ span: [5, 5], quote: '' }] })]),
    ],
    [
      'bad_span: /drafts/0/candidate/sources/0/span is not a [start, end] pair',
      output([draft({}, { sources: [{ span: [1], quote: 'e' }] })]),
    ],
    [
      'bad_span: /drafts/0/candidate/sources/0/quote is not on the message',
      output([draft({}, { sources: [{ span: [0, 3], quote: 'Violet' }] })]),
    ],
    [
      'bad_span: /drafts/0/candidate/sources/0/quote is not on the message',
      output([draft({}, { sources: [{ span: [0, 5], quote: 'Blue ' }] })]),
      { alignQuotes: false },
    ],
    ['no_source: /drafts/0 cites no span', output([draft({}, { sources: [] })])],
    [
      'unknown_object: /drafts/0 would update "ui.missing"',
      output([draft({ object_id: 'ui.missing' })], { touched: [] }),
    ],
    [
      'unknown_object: /drafts/0 would dispute "ui.missing"',
      output([draft({ object_id: 'ui.missing', intent: 'dispute' })], { touched: [] }),
    ],
    [
      'unknown_object: /drafts/0/supersedes/0 "ui.gone"',
      output([draft({ object_id: 'ui.new', intent: 'supersede', supersedes: ['ui.gone'] })]),
    ],
    [
      'unknown_object: /touched/1 "ui.phantom"',
      output(undefined, { touched: ['ui.colour', 'ui.phantom'] }),
    ],
    [
      'bad_intent: /drafts/0 would create "ui.colour", which already exists',
      output([draft({ intent: 'create' })]),
    ],
    [
      'bad_intent: /drafts/0 supersedes nothing',
      output([draft({ object_id: 'ui.new', intent: 'supersede' })]),
    ],
    [
      'bad_intent: /drafts/0 lists supersedes but its intent is update',
      output([draft({ supersedes: ['ui.colour'] })]),
    ],
    [
      'bad_id: /drafts/0/object_id is empty',
      output([draft({ object_id: ' ', intent: 'create' })], { touched: [] }),
    ],
    ['bad_id: /drafts/1/object_id repeats /drafts/0', output([draft(), draft()])],
    [
      'bad_intent: /drafts/0/supersedes/0 is the draft itself',
      output([draft({ intent: 'supersede', supersedes: ['ui.colour'] })]),
    ],
    ['too_many_drafts: 3 drafts (limit 2)', output([draft(), draft(), draft()]), { maxDrafts: 2 }],
    [
      'too_many_touched: ',
      output(undefined, { touched: Array.from({ length: 40 }, (_, i) => `t${i}`) }),
    ],
    [
      'too_long: /drafts/0/candidate/text is 5000 characters (limit 2000)',
      output([draft({}, { text: 'x'.repeat(5000) })]),
    ],
    ['too_long: /drafts/0/candidate/title', output([draft({}, { title: 't'.repeat(201) })])],
    ['too_long: the output is', output(), { maxOutputChars: 100 }],
  ];
  for (const [expected, text, options] of cases) {
    it(expected, async () => {
      const issues = await reasons(text, options);
      expect(
        issues.some((issue) => issue.startsWith(expected)),
        issues.join('\n'),
      ).toBe(true);
      for (const issue of issues) expect(CLASSIFY_FAILURES).toContain(issue.split(':')[0]);
    });
  }

  it('a model with no answer is model_output_invalid; an unreachable one is model_unavailable', async () => {
    const silent = new ModelClassifier(new ScriptedModel([]));
    expect(await silent.classify(input)).toMatchObject({
      ok: false,
      issues: [expect.stringMatching(/^model_output_invalid: /)],
    });
    const replay = new ModelClassifier(new ReplayModel([]));
    const result = await replay.classify(input);
    expect(result).toMatchObject({
      ok: false,
      issues: [
        expect.stringMatching(/^model_unavailable: replay: no recording for request sha256:/),
      ],
    });
  });

  it('never throws, whatever the model says', async () => {
    const anyText = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({
          outcome: fc.constantFrom('no_effect', 'candidate_fact', 'x'),
          touched: fc.array(fc.string()),
          drafts: fc.array(fc.anything(), { maxLength: 3 }),
          rationale: fc.string(),
        })
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        const result = await new ModelClassifier(answering(text).model).classify(input);
        if (!result.ok)
          for (const issue of result.issues)
            expect(CLASSIFY_FAILURES).toContain(issue.split(':')[0]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ModelClassifier over recorded and real HTTP models', () => {
  let server: FakeOpenAI;
  beforeEach(async () => {
    server = await startFakeOpenAI();
  });
  afterEach(async () => {
    await server.close();
  });

  it('a recorded session replays to the identical classification', async () => {
    const recorder = new RecordingModel(answering(output()).model);
    const live = await new ModelClassifier(recorder).classify(input);
    const replayed = await new ModelClassifier(
      ReplayModel.fromJsonl(recorder.toJsonl(), 'scripted'),
    ).classify(input);
    expect(replayed).toEqual(live);
    expect(live.ok).toBe(true);
  });

  it('over OpenAIModel: sends the schema strictly with the canon in the prompt, and checks the answer', async () => {
    server.enqueue(completion(output()));
    const model = new OpenAIModel({ baseURL: server.baseURL, model: 'local-llm', maxRetries: 0 });
    const result = await new ModelClassifier(model).classify(input);
    expect(result).toMatchObject({
      ok: true,
      value: { outcome: 'candidate_preference', classifier: 'model:openai:local-llm' },
    });
    const body = server.requests[0]?.body;
    expect(body.model).toBe('local-llm');
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: CLASSIFICATION_SCHEMA_NAME,
        schema: CLASSIFICATION_SCHEMA,
        strict: true,
      },
    });
    expect(body.messages[0].content).toContain('"id":"ui.colour"');
    expect(body.temperature).toBe(0);
  });

  it('over OpenAIModel: 500, empty content and prose become failed results', async () => {
    // No cool-down: each call must reach the server (the breaker is tested in test/models).
    const model = new OpenAIModel({
      baseURL: server.baseURL,
      model: 'm',
      maxRetries: 0,
      cooldownMs: 0,
    });
    const classifier = new ModelClassifier(model);
    server.enqueue(
      { kind: 'json', status: 500, body: { error: { message: 'overloaded' } } },
      completion(null),
      completion('I think it is a preference.'),
    );
    const prefixes = [];
    for (let i = 0; i < 3; i++) {
      const result = await classifier.classify(input);
      prefixes.push(result.ok ? 'ok' : result.issues[0]?.split(':')[0]);
    }
    expect(prefixes).toEqual(['model_unavailable', 'model_output_invalid', 'not_json']);
    await server.close();
    const closed = await classifier.classify(input);
    expect(closed).toMatchObject({
      ok: false,
      issues: [expect.stringMatching(/^model_unavailable: openai:m: connection failed/)],
    });
    server = await startFakeOpenAI();
  });
});
