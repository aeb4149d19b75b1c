import { setTimeout as sleep } from 'node:timers/promises';
import { type CanonryError, isCanonryError, parseJsonText } from '../core/index.js';
import { Breaker } from './breaker.js';
import { modelError } from './errors.js';
import { type Attempt, postOnce } from './http.js';
import {
  backoffMs,
  MAX_PAUSE_MS,
  type ModelCallPolicy,
  modelPolicy,
  retryAfterMs,
  toRetryAfterSeconds,
  worstWaitMs,
} from './policy.js';
import type { ModelPort, ModelRequest, ModelResponse } from './types.js';
import { completionText, requestBody } from './wire.js';

/** How to reach an OpenAI-compatible chat-completions server, and how long to wait for it. */
export interface OpenAIModelConfig extends Partial<ModelCallPolicy> {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** Sent as `Authorization: Bearer …`; never shown in errors, logs or inspection. */
  readonly apiKey?: string;
  /** The model name the server expects. */
  readonly model: string;
  /** The clock the cool-down runs on (tests inject one). */
  readonly now?: () => number;
}

/** Stand-in sent when no key is configured: local servers ignore it, and no env key ever leaks. */
const NO_KEY = 'canonry-no-key';

/** Statuses worth another attempt: the server is there but momentarily cannot answer. */
const RETRY_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);
/** Statuses that mean the model is not available at all for now (they open the breaker). */
const OUTAGE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Statuses by which the server asks for a pause: answered 503 MODEL_BUSY with Retry-After. */
const BUSY_STATUSES = new Set([429, 503]);

/**
 * A model behind any OpenAI-compatible server (vLLM, Ollama, LM Studio, llama.cpp, OpenAI), called
 * through chat completions; a schema becomes `response_format: json_schema` with `strict: true`.
 * Every call is bounded: each attempt by `timeoutMs` (headers and body), the whole call by
 * {@link worstWaitMs}; after a call fails for want of a model, calls fail fast for `cooldownMs`.
 */
export class OpenAIModel implements ModelPort {
  readonly route: string;
  readonly model: string;
  readonly baseURL: string;
  /** The checked timeouts, retries and cool-down. */
  readonly policy: ModelCallPolicy;
  readonly #apiKey: string;
  readonly #url: string;
  readonly #breaker: Breaker;

  /** Checks the policy settings (INVALID_ARGUMENT when one is out of bounds). */
  constructor(config: OpenAIModelConfig) {
    this.model = config.model;
    this.baseURL = config.baseURL;
    this.route = `openai:${config.model}`;
    this.#apiKey = config.apiKey ?? NO_KEY;
    this.#url = `${config.baseURL.replace(/\/+$/, '')}/chat/completions`;
    this.policy = modelPolicy(config);
    this.#breaker = new Breaker(this.policy.cooldownMs, config.now);
  }

  /** The longest {@link complete} can take, whatever the server does. */
  get worstWaitMs(): number {
    return worstWaitMs(this.policy);
  }

  /** Sends one chat completion and returns the content of the first choice. */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    // Built before the breaker is asked: once admitted, a call must end in succeeded() or failed().
    const body = JSON.stringify(requestBody(this.model, request));
    const wait = this.#breaker.admit();
    if (wait !== null) throw this.#coolingDown(wait);
    const deadline = AbortSignal.timeout(this.worstWaitMs);
    let attempt: Attempt = { kind: 'timeout' };
    let outcome: 'answered' | { hintMs: number } = { hintMs: 0 };
    try {
      for (let n = 0; n <= this.policy.maxRetries; n++) {
        if (n > 0) {
          const pause = this.#pause(attempt, n);
          // Another call found the model down meanwhile, or the server asked for a long pause.
          if (pause === null || this.#breaker.remaining() > 0) break;
          await sleep(pause, undefined, { signal: deadline }).catch(() => {});
          if (deadline.aborted) break;
        }
        // The attempt's own bound, held by a timer: an `AbortSignal.timeout` that only an
        // `AbortSignal.any` refers to can be collected before it fires on Node 20, and the attempt
        // then ran to the call's whole deadline.
        const bound = new AbortController();
        const timer = setTimeout(() => bound.abort(), this.policy.timeoutMs);
        try {
          attempt = await postOnce({
            url: this.#url,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json',
              authorization: `Bearer ${this.#apiKey}`,
            },
            body,
            signal: AbortSignal.any([deadline, bound.signal]),
            maxBytes: this.policy.maxResponseBytes,
          });
        } finally {
          clearTimeout(timer);
        }
        if (!retryable(attempt)) break;
      }
      if (!isOutage(attempt)) outcome = 'answered';
      else
        outcome = { hintMs: attempt.kind === 'answer' ? (retryAfterMs(attempt.headers) ?? 0) : 0 };
    } finally {
      if (outcome === 'answered') this.#breaker.succeeded();
      else this.#breaker.failed(outcome.hintMs);
    }
    return this.#result(attempt);
  }

  /** What `JSON.stringify` shows: the route, never the key. */
  toJSON(): { route: string; model: string; baseURL: string } {
    return { route: this.route, model: this.model, baseURL: this.baseURL };
  }

  /** The pause before attempt `n`, or null when the server asked for longer than a pause. */
  #pause(last: Attempt, n: number): number | null {
    const asked = last.kind === 'answer' ? retryAfterMs(last.headers) : undefined;
    if (asked === undefined) return backoffMs(n);
    return asked <= MAX_PAUSE_MS ? asked : null;
  }

  #result(attempt: Attempt): ModelResponse {
    switch (attempt.kind) {
      case 'timeout':
        throw modelError(
          'MODEL_UNAVAILABLE',
          `${this.route}: the request timed out (${this.policy.timeoutMs} ms an attempt, ${this.policy.maxRetries} retries)`,
          this.route,
        );
      case 'connection':
        throw modelError(
          'MODEL_UNAVAILABLE',
          `${this.route}: connection failed${attempt.cause ? ` (${attempt.cause})` : ''}`,
          this.route,
        );
      case 'too_large':
        throw modelError(
          attempt.status >= 200 && attempt.status < 300
            ? 'MODEL_OUTPUT_INVALID'
            : 'MODEL_UNAVAILABLE',
          `${this.route}: the response is over ${attempt.limit} bytes`,
          this.route,
          { upstream_status: attempt.status },
        );
      case 'answer':
        if (attempt.status < 200 || attempt.status > 299) throw this.#httpFailure(attempt);
        return this.#completion(attempt.text);
    }
  }

  #httpFailure(attempt: Extract<Attempt, { kind: 'answer' }>): CanonryError {
    const { status } = attempt;
    const detail = errorDetail(attempt.text, (text) => this.#scrub(text));
    const message = `${this.route}: HTTP ${status}${detail ? `: ${detail}` : ''}`;
    if (!BUSY_STATUSES.has(status)) {
      return modelError('MODEL_UNAVAILABLE', message, this.route, { upstream_status: status });
    }
    const asked = retryAfterMs(attempt.headers);
    return modelError('MODEL_BUSY', message, this.route, {
      upstream_status: status,
      retry_after_s: toRetryAfterSeconds(Math.max(asked ?? 0, this.#breaker.remaining(), 1)),
    });
  }

  #coolingDown(waitMs: number): CanonryError {
    return modelError(
      'MODEL_BUSY',
      `${this.route}: not called while it cools down after failing`,
      this.route,
      { retry_after_s: toRetryAfterSeconds(waitMs) },
    );
  }

  #completion(text: string): ModelResponse {
    let body: unknown;
    try {
      body = parseJsonText(text, 64);
    } catch (err) {
      // A body naming a member twice (a choice's content, say) is refused too: the parser keeps
      // the last, a proxy or logger on the way may have read the first.
      const reason = isCanonryError(err) ? this.#scrub(err.message) : 'not JSON';
      throw modelError(
        'MODEL_OUTPUT_INVALID',
        `${this.route}: unreadable response: ${reason}`,
        this.route,
      );
    }
    const read = completionText(body, this.model);
    if (read.ok) return read.value;
    // Scrubbed whole, then cut: a key that straddled the cut would otherwise leave its start.
    throw modelError(
      'MODEL_OUTPUT_INVALID',
      `${this.route}: ${this.#scrub(read.issues[0]!).slice(0, MAX_DETAIL + 40)}`,
      this.route,
    );
  }

  /** Removes the key from text a server may have echoed back. */
  #scrub(text: string): string {
    return this.#apiKey === NO_KEY ? text : text.replaceAll(this.#apiKey, '[redacted]');
  }
}

function retryable(attempt: Attempt): boolean {
  // A timeout is not retried: a model that did not answer in time is hung or overloaded, and a
  // second wait would double the bound for nothing.
  if (attempt.kind === 'connection') return true;
  return attempt.kind === 'answer' && RETRY_STATUSES.has(attempt.status);
}

function isOutage(attempt: Attempt): boolean {
  if (attempt.kind === 'timeout' || attempt.kind === 'connection') return true;
  return attempt.kind === 'answer' && OUTAGE_STATUSES.has(attempt.status);
}

/** Characters of a server's error message kept in an error. */
const MAX_DETAIL = 300;

/**
 * The message of an OpenAI-style error body (or the start of the raw text), on one line, with
 * `scrub` applied before it is cut (a key across the cut would otherwise leave its start).
 */
function errorDetail(text: string, scrub: (text: string) => string): string {
  let detail = text;
  try {
    const body = parseJsonText(text, 16) as { error?: { message?: unknown } } | null;
    if (typeof body?.error?.message === 'string') detail = body.error.message;
  } catch {}
  return scrub(detail).replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL);
}
