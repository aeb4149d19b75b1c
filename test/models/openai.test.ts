import { inspect } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CanonryError, ERROR_CODES } from '../../src/core/index.js';
import {
  type ModelErrorCode,
  modelConfigFromEnv,
  modelErrorCode,
  OpenAIModel,
} from '../../src/models/index.js';
import {
  apiError,
  completion,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';

const KEY = 'sk-test-0123456789abcdefSECRET';
const SCHEMA = {
  name: 'answer',
  schema: {
    type: 'object',
    properties: { ok: { type: 'boolean' } },
    required: ['ok'],
    additionalProperties: false,
  },
};
const ASK = { messages: [{ role: 'user' as const, content: 'hello' }] };

let server: FakeOpenAI;
beforeEach(async () => {
  server = await startFakeOpenAI();
});
afterEach(async () => {
  await server.close();
});

function model(extra: Partial<ConstructorParameters<typeof OpenAIModel>[0]> = {}): OpenAIModel {
  return new OpenAIModel({
    baseURL: server.baseURL,
    apiKey: KEY,
    model: 'm-1',
    maxRetries: 0,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>, code: ModelErrorCode): Promise<CanonryError> {
  const error = await promise.then(
    () => expect.unreachable('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CanonryError);
  expect(modelErrorCode(error)).toBe(code);
  const core = Object.hasOwn(ERROR_CODES, code) ? code : 'INVALID_ARGUMENT';
  expect((error as CanonryError).code).toBe(core);
  expect(String((error as Error).message)).not.toContain(KEY);
  expect(inspect(error, { depth: 10 })).not.toContain(KEY);
  return error as CanonryError;
}

describe('OpenAIModel against a real HTTP server', () => {
  it('sends the model, the messages and the schema as strict json_schema, with the key', async () => {
    server.enqueue(completion('{"ok":true}', 'served-model'));
    const response = await model().complete({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
      schema: SCHEMA,
      temperature: 0,
      maxTokens: 64,
    });
    expect(response).toEqual({
      text: '{"ok":true}',
      model: 'served-model',
      usage: { prompt_tokens: 11, completion_tokens: 7 },
    });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.body).toMatchObject({
      model: 'm-1',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello' },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: SCHEMA.schema, strict: true },
      },
      temperature: 0,
      max_tokens: 64,
    });
  });

  it('sends no response_format without a schema, and no env key without a configured key', async () => {
    server.enqueue(completion('plain'));
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-env-must-not-leak';
    try {
      const response = await model({ apiKey: undefined }).complete(ASK);
      expect(response.text).toBe('plain');
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
    const body = server.requests[0]?.body;
    expect(body.response_format).toBeUndefined();
    expect(String(server.requests[0]?.headers.authorization)).not.toContain('sk-from-env');
  });

  it('a 500 is MODEL_UNAVAILABLE naming the status', async () => {
    server.enqueue(apiError(500, 'boom'));
    const error = await failure(model().complete(ASK), 'MODEL_UNAVAILABLE');
    expect(error.message).toContain('HTTP 500');
    expect(error.details).toMatchObject({ route: 'openai:m-1' });
  });

  it('retries a 500 when retries are allowed', async () => {
    server.enqueue(apiError(500, 'transient'), completion('{"ok":true}'));
    const response = await model({ maxRetries: 1 }).complete(ASK);
    expect(response.text).toBe('{"ok":true}');
    expect(server.requests).toHaveLength(2);
  });

  it('a key echoed back by the server is redacted from the error', async () => {
    server.enqueue((req) => apiError(401, `bad key ${String(req.headers.authorization)}`));
    const error = await failure(model().complete(ASK), 'MODEL_UNAVAILABLE');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('[redacted]');
  });

  it('redacts the key before a long message is cut, so no start of it is left at the cut', async () => {
    /** No run of 8 characters of the key is in `text`. */
    const noPiece = (text: string) => {
      for (let i = 0; i + 8 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 8));
    };
    for (const pad of [280, 285, 290, 295]) {
      server.enqueue(apiError(400, `${'x'.repeat(pad)} ${KEY}`));
      noPiece((await failure(model().complete(ASK), 'MODEL_UNAVAILABLE')).message);
      server.enqueue(() => {
        const reply = completion(null) as { kind: 'json'; body: any };
        reply.body.choices[0].message.refusal = `${'y'.repeat(pad)} ${KEY}`;
        return reply;
      });
      noPiece((await failure(model().complete(ASK), 'MODEL_OUTPUT_INVALID')).message);
    }
  });

  it('an answer cut at the token limit or withheld by a filter is MODEL_OUTPUT_INVALID', async () => {
    for (const reason of ['length', 'content_filter']) {
      server.enqueue(() => {
        const reply = completion('{"ok": tr') as { kind: 'json'; body: any };
        reply.body.choices[0].finish_reason = reason;
        return reply;
      });
      const error = await failure(model().complete(ASK), 'MODEL_OUTPUT_INVALID');
      expect(error.message).toContain(reason);
    }
  });

  it("keeps a server's model name and token counts only when they read as such", async () => {
    server.enqueue(() => {
      const reply = completion('{"ok":true}') as { kind: 'json'; body: any };
      reply.body.model = 'x'.repeat(100_000);
      reply.body.usage = { prompt_tokens: -5, completion_tokens: 1.5 };
      return reply;
    });
    const odd = await model().complete(ASK);
    expect(odd.model).toBe('m-1');
    expect(odd.usage).toBeUndefined();
    server.enqueue(() => {
      const reply = completion('{"ok":true}') as { kind: 'json'; body: any };
      reply.body.model = 'm-1-2026-01';
      reply.body.usage = { prompt_tokens: 12, completion_tokens: 3 };
      return reply;
    });
    const plain = await model().complete(ASK);
    expect(plain.model).toBe('m-1-2026-01');
    expect(plain.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3 });
  });

  it('connection refused (server closed) is MODEL_UNAVAILABLE', async () => {
    const closed = model();
    await server.close();
    const error = await failure(closed.complete(ASK), 'MODEL_UNAVAILABLE');
    expect(error.message).toMatch(/connection failed/);
    server = await startFakeOpenAI(); // for afterEach
  });

  it('a dropped connection is MODEL_UNAVAILABLE', async () => {
    server.enqueue({ kind: 'drop' });
    await failure(model().complete(ASK), 'MODEL_UNAVAILABLE');
  });

  it('a timeout is MODEL_UNAVAILABLE', async () => {
    server.enqueue({ kind: 'hang' });
    const error = await failure(model({ timeoutMs: 200 }).complete(ASK), 'MODEL_UNAVAILABLE');
    expect(error.message).toContain('timed out');
  });

  it('an attempt ends at its own timeout even when the collector runs meanwhile', async () => {
    // An AbortSignal.timeout only a composite signal refers to can be collected before it fires
    // (Node 20): the attempt then waited for the call's whole deadline.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    server.enqueue({ kind: 'hang' });
    const m = model({ timeoutMs: 300, maxRetries: 1 });
    expect(m.worstWaitMs).toBeGreaterThan(900);
    const collecting = setInterval(gc, 20);
    const started = performance.now();
    try {
      const error = await failure(m.complete(ASK), 'MODEL_UNAVAILABLE');
      expect(error.message).toContain('timed out');
    } finally {
      clearInterval(collecting);
    }
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    // One timeout is not retried: the call costs one attempt's bound, not the worst wait.
    expect(took).toBeLessThan(m.worstWaitMs - 300);
  });

  it('empty choices, null content and a refusal are MODEL_OUTPUT_INVALID', async () => {
    const empty = completion('x');
    (empty as { body: { choices: unknown[] } }).body.choices = [];
    server.enqueue(empty, completion(null), completion(''));
    for (let i = 0; i < 3; i++) {
      const error = await failure(model().complete(ASK), 'MODEL_OUTPUT_INVALID');
      expect(error.message).toContain('no content');
    }
    server.enqueue(() => {
      const reply = completion(null) as { kind: 'json'; body: any };
      reply.body.choices[0].message.refusal = 'I cannot';
      return reply;
    });
    expect((await failure(model().complete(ASK), 'MODEL_OUTPUT_INVALID')).message).toContain(
      'refused',
    );
  });

  it('garbage bodies are MODEL_OUTPUT_INVALID', async () => {
    server.enqueue(
      { kind: 'raw', contentType: 'text/plain', text: 'not a completion' },
      { kind: 'raw', contentType: 'application/json', text: '{"choices": [' },
      { kind: 'json', body: { unexpected: true } },
    );
    for (let i = 0; i < 3; i++) await failure(model().complete(ASK), 'MODEL_OUTPUT_INVALID');
  });

  it('a body naming a member twice is MODEL_OUTPUT_INVALID naming it, not the last one read', async () => {
    const text = JSON.stringify((completion('{"ok":true}') as { body: unknown }).body);
    expect(text).toContain('"content":');
    // A reader keeping the first content sees another answer.
    const doubled = text.replace('"content":', '"content":"{\\"ok\\":false}","content":');
    expect(JSON.parse(doubled).choices[0].message.content).toBe('{"ok":true}');
    server.enqueue({ kind: 'raw', contentType: 'application/json', text: doubled });
    const error = await failure(model().complete(ASK), 'MODEL_OUTPUT_INVALID');
    expect(error.message).toBe(
      'openai:m-1: unreadable response: an object names member "content" twice',
    );
  });

  it('the key never appears in util.inspect or JSON.stringify of the model', () => {
    const m = model();
    expect(inspect(m, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(m)).not.toContain(KEY);
    expect(JSON.parse(JSON.stringify(m))).toEqual({
      route: 'openai:m-1',
      model: 'm-1',
      baseURL: server.baseURL,
    });
  });
});

describe('modelConfigFromEnv', () => {
  it('reads the three variables, or null without a URL', () => {
    expect(modelConfigFromEnv({})).toBeNull();
    expect(
      modelConfigFromEnv({
        CANONRY_MODEL_URL: 'http://127.0.0.1:11434/v1',
        CANONRY_MODEL: 'llama3',
        CANONRY_MODEL_KEY: 'k',
      }),
    ).toEqual({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: 'k' });
    expect(modelConfigFromEnv({ CANONRY_MODEL_URL: 'http://h/v1', CANONRY_MODEL: 'm' })).toEqual({
      baseURL: 'http://h/v1',
      model: 'm',
    });
  });

  it('refuses a bad URL or a missing model name', () => {
    expect(() =>
      modelConfigFromEnv({ CANONRY_MODEL_URL: 'not a url', CANONRY_MODEL: 'm' }),
    ).toThrow(/CANONRY_MODEL_URL/);
    expect(() => modelConfigFromEnv({ CANONRY_MODEL_URL: 'http://h/v1' })).toThrow(
      /CANONRY_MODEL /,
    );
  });
});
