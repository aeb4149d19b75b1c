// The model path is bounded whatever the server does: slow headers, headers then silence, a body
// that never ends, 429/503 with Retry-After, 5xx, a dead port, a redirect. Over real HTTP on
// loopback; the only clock assertion is that a short configured bound ends the call well before the
// default one would.
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import {
  Breaker,
  DEFAULT_MODEL_POLICY,
  MAX_RETRY_AFTER_MS,
  modelConfigFromEnv,
  modelErrorCode,
  OpenAIModel,
  type OpenAIModelConfig,
  retryAfterMs,
  worstWaitMs,
} from '../../src/models/index.js';
import {
  apiError,
  completion,
  deadURL,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';

const ASK = { messages: [{ role: 'user' as const, content: 'hello' }] };
const KEY = 'sk-bounds-SECRET-0123456789';

let server: FakeOpenAI;
beforeEach(async () => {
  server = await startFakeOpenAI();
});
afterEach(async () => {
  await server.close();
});

function model(extra: Partial<OpenAIModelConfig> = {}): OpenAIModel {
  return new OpenAIModel({
    baseURL: server.baseURL,
    apiKey: KEY,
    model: 'm',
    timeoutMs: 300,
    maxRetries: 0,
    cooldownMs: 0,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>): Promise<CanonryError> {
  const error = await promise.then(
    () => expect.unreachable('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CanonryError);
  expect(String((error as Error).message)).not.toContain(KEY);
  return error as CanonryError;
}

/** Runs a call that must fail, and how long it took. */
async function timed(promise: Promise<unknown>): Promise<{ error: CanonryError; ms: number }> {
  const start = performance.now();
  const error = await failure(promise);
  return { error, ms: performance.now() - start };
}

describe('every attempt is bounded by its timeout, headers and body alike', () => {
  for (const [name, reply] of [
    ['a server that never sends headers', { kind: 'hang' }],
    ['a server that sends headers and then nothing', { kind: 'stall' }],
    ['a body dribbled one byte at a time', { kind: 'dribble', everyMs: 50 }],
  ] as const) {
    it(`${name}: MODEL_UNAVAILABLE well before the default bound`, async () => {
      server.enqueue(reply);
      const { error, ms } = await timed(model().complete(ASK));
      expect(modelErrorCode(error)).toBe('MODEL_UNAVAILABLE');
      expect(error.message).toContain('timed out');
      expect(error.details).toEqual({ route: 'openai:m' });
      expect(ms).toBeLessThan(DEFAULT_MODEL_POLICY.timeoutMs / 2);
    });
  }

  it('a timeout is not retried: a hung model is waited for once', async () => {
    server.enqueue({ kind: 'stall' }, completion('late'));
    await failure(model({ maxRetries: 3 }).complete(ASK));
    expect(server.requests).toHaveLength(1);
  });

  it('the worst wait is (retries + 1) timeouts and the pauses between them', () => {
    expect(worstWaitMs(DEFAULT_MODEL_POLICY)).toBe(41_000);
    const m = model({ timeoutMs: 2_000, maxRetries: 2 });
    expect(m.worstWaitMs).toBe(3 * 2_000 + 2 * 1_000);
  });

  it('a body over the byte limit is MODEL_OUTPUT_INVALID, not read to its end', async () => {
    server.enqueue(completion('x'.repeat(5_000)));
    const error = await failure(model({ maxResponseBytes: 2_048 }).complete(ASK));
    expect(modelErrorCode(error)).toBe('MODEL_OUTPUT_INVALID');
    expect(error.message).toContain('over 2048 bytes');
  });
});

describe('retries: quick failures only, within the bound', () => {
  it('500s are retried up to maxRetries, then MODEL_UNAVAILABLE naming the status', async () => {
    server.enqueue(apiError(500, 'a'), apiError(502, 'b'), completion('{"ok":true}'));
    expect((await model({ maxRetries: 2 }).complete(ASK)).text).toBe('{"ok":true}');
    expect(server.requests).toHaveLength(3);
    server.enqueue(apiError(500, 'a'), apiError(500, 'b'), apiError(500, 'c'));
    const error = await failure(model({ maxRetries: 1 }).complete(ASK));
    expect(modelErrorCode(error)).toBe('MODEL_UNAVAILABLE');
    expect(error.details).toEqual({ route: 'openai:m', upstream_status: 500 });
    expect(server.requests).toHaveLength(5);
  });

  it('a 400 or 401 is not retried', async () => {
    server.enqueue(apiError(401, 'no'), completion('never'));
    const error = await failure(model({ maxRetries: 2 }).complete(ASK));
    expect(error.details).toMatchObject({ upstream_status: 401 });
    expect(server.requests).toHaveLength(1);
  });

  it('a short Retry-After is honoured inside the call', async () => {
    server.enqueue(apiError(503, 'warming up', { 'retry-after-ms': '150' }), completion('ready'));
    expect((await model({ maxRetries: 1 }).complete(ASK)).text).toBe('ready');
    expect(server.requests).toHaveLength(2);
  });

  for (const status of [429, 503]) {
    it(`${status} with a long Retry-After ends the call at once: MODEL_BUSY with the hint`, async () => {
      server.enqueue(apiError(status, 'slow down', { 'retry-after': '7' }), completion('no'));
      const error = await failure(model({ maxRetries: 3 }).complete(ASK));
      expect(error.code).toBe('MODEL_BUSY');
      expect(error.status).toBe(503);
      expect(error.details).toEqual({
        route: 'openai:m',
        upstream_status: status,
        retry_after_s: 7,
      });
      expect(server.requests).toHaveLength(1);
    });
  }

  it('a 429 without Retry-After, retries spent: MODEL_BUSY for the cool-down', async () => {
    server.enqueue(apiError(429, 'busy'), apiError(429, 'busy'));
    const error = await failure(model({ maxRetries: 1, cooldownMs: 4_000 }).complete(ASK));
    expect(error.code).toBe('MODEL_BUSY');
    expect(error.details).toMatchObject({ retry_after_s: 4 });
  });

  it('a dead port is MODEL_UNAVAILABLE (connection refused), retried as asked', async () => {
    const dead = new OpenAIModel({ baseURL: await deadURL(), model: 'm', maxRetries: 1 });
    const error = await failure(dead.complete(ASK));
    expect(modelErrorCode(error)).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a redirect is not followed, so the key never reaches another host', async () => {
    const other = await startFakeOpenAI();
    try {
      server.enqueue({
        kind: 'raw',
        status: 307,
        contentType: 'text/plain',
        text: 'moved',
        headers: { location: `${other.baseURL}/chat/completions` },
      });
      const error = await failure(model().complete(ASK));
      expect(error.details).toMatchObject({ upstream_status: 307 });
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('the cool-down: a model that just failed is not called again until it ends', () => {
  it('fails fast, then lets one probe through, and closes when the probe succeeds', async () => {
    let now = 1_000_000;
    const m = model({ cooldownMs: 5_000, now: () => now });
    server.enqueue({ kind: 'drop' });
    expect(modelErrorCode(await failure(m.complete(ASK)))).toBe('MODEL_UNAVAILABLE');
    expect(server.requests).toHaveLength(1);

    const held = await failure(m.complete(ASK));
    expect(held.code).toBe('MODEL_BUSY');
    expect(held.details).toEqual({ route: 'openai:m', retry_after_s: 5 });
    now += 3_500;
    expect((await failure(m.complete(ASK))).details).toMatchObject({ retry_after_s: 2 });
    expect(server.requests).toHaveLength(1);

    now += 2_000;
    server.enqueue(completion('back'));
    expect((await m.complete(ASK)).text).toBe('back');
    server.enqueue(completion('again'));
    expect((await m.complete(ASK)).text).toBe('again');
    expect(server.requests).toHaveLength(3);
  });

  it('a server that asks for a longer pause than the cool-down holds it off that long', async () => {
    let now = 0;
    const m = model({ cooldownMs: 1_000, now: () => now });
    server.enqueue(apiError(429, 'later', { 'retry-after': '30' }));
    expect((await failure(m.complete(ASK))).details).toMatchObject({ retry_after_s: 30 });
    now += 10_000;
    expect((await failure(m.complete(ASK))).details).toMatchObject({ retry_after_s: 20 });
    expect(server.requests).toHaveLength(1);
  });

  it('bad output and 4xx do not open it: the model is there', async () => {
    const m = model({ cooldownMs: 60_000 });
    server.enqueue(completion(null), apiError(404, 'no such model'), completion('fine'));
    expect(modelErrorCode(await failure(m.complete(ASK)))).toBe('MODEL_OUTPUT_INVALID');
    expect(modelErrorCode(await failure(m.complete(ASK)))).toBe('MODEL_UNAVAILABLE');
    expect((await m.complete(ASK)).text).toBe('fine');
  });

  it('while a probe is out, other calls wait for it', () => {
    let now = 0;
    const breaker = new Breaker(1_000, () => now);
    breaker.failed();
    expect(breaker.admit()).toBe(1_000);
    now = 1_000;
    expect(breaker.admit()).toBeNull();
    expect(breaker.state.status).toBe('probing');
    expect(breaker.admit()).toBe(1_000);
    breaker.failed();
    expect(breaker.remaining()).toBe(1_000);
    const off = new Breaker(0);
    off.failed(60_000);
    expect(off.admit()).toBeNull();
  });
});

describe('settings are checked', () => {
  it('the constructor refuses out-of-bounds settings with INVALID_ARGUMENT', () => {
    for (const bad of [
      { timeoutMs: 0 },
      { timeoutMs: 1.5 },
      { maxRetries: -1 },
      { maxRetries: 99 },
      { cooldownMs: Number.NaN },
      { maxResponseBytes: 10 },
    ]) {
      expect(() => model(bad as Partial<OpenAIModelConfig>), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('the environment sets timeout, retries and cool-down; bad values are INVALID_ARGUMENT', () => {
    const base = { CANONRY_MODEL_URL: 'http://127.0.0.1:1/v1', CANONRY_MODEL: 'm' };
    expect(
      modelConfigFromEnv({
        ...base,
        CANONRY_MODEL_TIMEOUT_MS: '300',
        CANONRY_MODEL_RETRIES: '0',
        CANONRY_MODEL_COOLDOWN_MS: '0',
      }),
    ).toEqual({
      baseURL: base.CANONRY_MODEL_URL,
      model: 'm',
      timeoutMs: 300,
      maxRetries: 0,
      cooldownMs: 0,
    });
    for (const [name, value] of [
      ['CANONRY_MODEL_TIMEOUT_MS', '10'],
      ['CANONRY_MODEL_TIMEOUT_MS', '5s'],
      ['CANONRY_MODEL_RETRIES', '6'],
      ['CANONRY_MODEL_RETRIES', '-1'],
      ['CANONRY_MODEL_COOLDOWN_MS', '1e9'],
    ]) {
      let thrown: unknown;
      try {
        modelConfigFromEnv({ ...base, [name!]: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, `${name}=${value}`).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: name },
      });
    }
  });

  it('Retry-After is read as ms, seconds or an HTTP date, and capped', () => {
    const h = (init: Record<string, string>) => new Headers(init);
    expect(retryAfterMs(h({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '3' }))).toBe(3_000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 01 Jan 2025 00:00:09 GMT' }), now)).toBe(9_000);
    expect(retryAfterMs(h({ 'retry-after': '999999' }))).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(h({}))).toBeUndefined();
  });
});
