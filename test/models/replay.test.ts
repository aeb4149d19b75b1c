import { describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import {
  countTokens,
  type ModelRequest,
  modelErrorCode,
  OpenAIModel,
  parseRecordings,
  RecordingModel,
  ReplayModel,
  requestKey,
  ScriptedModel,
  TOKEN_ENCODING,
} from '../../src/models/index.js';
import { completion, startFakeOpenAI } from '../fixtures/models/fake-openai-server.js';

const schema = { name: 's', schema: { type: 'object' } };
const ask = (content: string): ModelRequest => ({ messages: [{ role: 'user', content }], schema });

describe('ScriptedModel', () => {
  const model = new ScriptedModel([
    { match: /colour/i, respond: (r) => `colour:${r.messages.length}` },
    { match: (r) => r.schema === undefined, respond: () => 'no schema' },
  ]);

  it('answers from the first matching rule, with token usage', async () => {
    const response = await model.complete(ask('Which colour?'));
    expect(response).toEqual({
      text: 'colour:1',
      model: 'scripted',
      usage: {
        prompt_tokens: countTokens('Which colour?'),
        completion_tokens: countTokens('colour:1'),
      },
    });
    expect((await model.complete({ messages: [{ role: 'user', content: 'x' }] })).text).toBe(
      'no schema',
    );
  });

  it('no match is MODEL_OUTPUT_INVALID', async () => {
    const error = await model.complete(ask('nothing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CanonryError);
    expect(modelErrorCode(error)).toBe('MODEL_OUTPUT_INVALID');
  });

  it('a global RegExp matches every time (no lastIndex state)', async () => {
    const g = new ScriptedModel([{ match: /a/g, respond: () => 'hit' }]);
    for (let i = 0; i < 3; i++) expect((await g.complete(ask('banana'))).text).toBe('hit');
  });
});

describe('RecordingModel → JSONL → ReplayModel', () => {
  it('replays identical outputs for a scripted session', async () => {
    let n = 0;
    const inner = new ScriptedModel([
      { match: /./, respond: (r) => `answer ${++n} to ${r.messages[0]?.content}` },
    ]);
    const recorder = new RecordingModel(inner);
    const requests = [ask('one'), ask('two'), ask('one')];
    const live = [];
    for (const r of requests) live.push(await recorder.complete(r));
    const jsonl = recorder.toJsonl();
    expect(jsonl.trim().split('\n')).toHaveLength(3);
    const replay = ReplayModel.fromJsonl(jsonl);
    const replayed = [];
    for (const r of requests) replayed.push(await replay.complete(r));
    expect(replayed).toEqual(live);
    // The last recording of a request repeats once the sequence is used up.
    expect(await replay.complete(ask('one'))).toEqual(live[2]);
  });

  it('records a real HTTP session and replays it without the server', async () => {
    const server = await startFakeOpenAI();
    server.enqueue(completion('{"a":1}'), completion('{"b":2}'));
    const recorder = new RecordingModel(
      new OpenAIModel({ baseURL: server.baseURL, model: 'm', maxRetries: 0 }),
    );
    const live = [await recorder.complete(ask('first')), await recorder.complete(ask('second'))];
    await server.close();
    const replay = new ReplayModel(parseRecordings(recorder.toJsonl()));
    expect([await replay.complete(ask('first')), await replay.complete(ask('second'))]).toEqual(
      live,
    );
    expect(recorder.route).toBe('openai:m');
  });

  it('keys ignore member order and sampling, but not content', () => {
    const a = requestKey({ messages: [{ role: 'user', content: 'x' }], temperature: 0 });
    const b = requestKey({ messages: [{ content: 'x', role: 'user' }], maxTokens: 9 });
    expect(a).toBe(b);
    expect(requestKey(ask('x'))).not.toBe(a);
  });

  it('an unrecorded request is MODEL_UNAVAILABLE naming its hash', async () => {
    const replay = new ReplayModel([]);
    const error = await replay.complete(ask('never recorded')).catch((e: unknown) => e);
    expect(modelErrorCode(error)).toBe('MODEL_UNAVAILABLE');
    expect((error as Error).message).toContain(requestKey(ask('never recorded')));
  });

  it('refuses malformed JSONL and tampered keys', async () => {
    const recorder = new RecordingModel(new ScriptedModel([{ match: /./, respond: () => 'x' }]));
    await recorder.complete(ask('q'));
    const line = JSON.parse(recorder.toJsonl());
    expect(() => parseRecordings('{not json\n')).toThrow(/line 1: the text is not valid JSON/);
    // A line naming its key twice: JSON.parse would keep the matching last one.
    const doubled = JSON.stringify(line).replace('{', `{"key":"sha256:${'0'.repeat(64)}",`);
    expect(() => parseRecordings(doubled)).toThrow(/line 1: an object names member "key" twice/);
    expect(() =>
      parseRecordings(`\n${JSON.stringify({ ...line, key: `sha256:${'0'.repeat(64)}` })}`),
    ).toThrow(/line 2: the key does not match/);
    expect(() => parseRecordings(JSON.stringify({ key: line.key, request: line.request }))).toThrow(
      /no response/,
    );
  });
});

describe('countTokens', () => {
  it('counts o200k_base tokens and treats special markers as text', () => {
    expect(TOKEN_ENCODING).toBe('o200k_base');
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});
