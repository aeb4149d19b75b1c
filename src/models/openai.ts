import OpenAI from 'openai';
import type { CanonryError } from '../core/index.js';
import { modelError } from './errors.js';
import type { ModelPort, ModelRequest, ModelResponse } from './types.js';

/** How to reach an OpenAI-compatible chat-completions server. */
export interface OpenAIModelConfig {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** Sent as `Authorization: Bearer …`; never shown in errors, logs or inspection. */
  readonly apiKey?: string;
  /** The model name the server expects. */
  readonly model: string;
  /** Per-attempt timeout; 60 s by default. */
  readonly timeoutMs?: number;
  /** Retries on connection errors, 408/409/429 and 5xx (the `openai` client's policy); 2 by default. */
  readonly maxRetries?: number;
}

/** Stand-in sent when no key is configured: local servers ignore it, and no env key ever leaks. */
const NO_KEY = 'canonry-no-key';

/**
 * A model behind any OpenAI-compatible server (vLLM, Ollama, LM Studio, llama.cpp, OpenAI), called
 * through chat completions; a schema becomes `response_format: json_schema` with `strict: true`.
 */
export class OpenAIModel implements ModelPort {
  readonly route: string;
  readonly model: string;
  readonly baseURL: string;
  readonly #client: OpenAI;
  readonly #apiKey: string;

  constructor(config: OpenAIModelConfig) {
    this.model = config.model;
    this.baseURL = config.baseURL;
    this.route = `openai:${config.model}`;
    this.#apiKey = config.apiKey ?? NO_KEY;
    this.#client = new OpenAI({
      baseURL: config.baseURL,
      apiKey: this.#apiKey,
      organization: null,
      project: null,
      timeout: config.timeoutMs ?? 60_000,
      maxRetries: config.maxRetries ?? 2,
      logLevel: 'off',
    });
  }

  /** Sends one chat completion and returns the content of the first choice. */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.#client.chat.completions.create({
        model: this.model,
        messages: request.messages.map(({ role, content }) => ({ role, content })),
        ...(request.schema === undefined
          ? {}
          : {
              response_format: {
                type: 'json_schema',
                json_schema: {
                  name: request.schema.name,
                  schema: request.schema.schema,
                  strict: true,
                },
              },
            }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
      });
    } catch (error) {
      throw this.#failure(error);
    }
    return this.#response(completion as unknown);
  }

  /** What `JSON.stringify` shows: the route, never the key. */
  toJSON(): { route: string; model: string; baseURL: string } {
    return { route: this.route, model: this.model, baseURL: this.baseURL };
  }

  #response(completion: unknown): ModelResponse {
    const body = completion as Partial<OpenAI.Chat.Completions.ChatCompletion> | null;
    const choice = Array.isArray(body?.choices) ? body.choices[0] : undefined;
    const message = choice?.message;
    if (typeof message?.refusal === 'string' && message.refusal !== '') {
      throw modelError(
        'MODEL_OUTPUT_INVALID',
        `the model refused: ${this.#scrub(message.refusal)}`,
        this.route,
      );
    }
    if (typeof message?.content !== 'string' || message.content === '') {
      throw modelError('MODEL_OUTPUT_INVALID', 'the model returned no content', this.route);
    }
    const usage = body?.usage;
    return {
      text: message.content,
      model: typeof body?.model === 'string' ? body.model : this.model,
      ...(usage &&
      typeof usage.prompt_tokens === 'number' &&
      typeof usage.completion_tokens === 'number'
        ? {
            usage: {
              prompt_tokens: usage.prompt_tokens,
              completion_tokens: usage.completion_tokens,
            },
          }
        : {}),
    };
  }

  #failure(error: unknown): CanonryError {
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      return modelError('MODEL_UNAVAILABLE', `${this.route}: the request timed out`, this.route);
    }
    if (error instanceof OpenAI.APIConnectionError) {
      const cause = describeCause(error.cause);
      return modelError(
        'MODEL_UNAVAILABLE',
        this.#scrub(`${this.route}: connection failed${cause}`),
        this.route,
      );
    }
    if (error instanceof OpenAI.APIError) {
      const detail = this.#scrub(error.message).slice(0, 300);
      return modelError(
        'MODEL_UNAVAILABLE',
        `${this.route}: HTTP ${error.status ?? '?'}: ${detail}`,
        this.route,
      );
    }
    // The server answered 2xx with a body the client could not read as a completion.
    const detail =
      error instanceof Error ? this.#scrub(error.message).slice(0, 300) : 'unreadable body';
    return modelError(
      'MODEL_OUTPUT_INVALID',
      `${this.route}: unreadable response: ${detail}`,
      this.route,
    );
  }

  /** Removes the key from text a server may have echoed back. */
  #scrub(text: string): string {
    return this.#apiKey === NO_KEY ? text : text.replaceAll(this.#apiKey, '[redacted]');
  }
}

/** ` (ECONNREFUSED)` or similar from a fetch failure's cause chain, or nothing. */
function describeCause(cause: unknown): string {
  for (let at = cause, depth = 0; at instanceof Error && depth < 4; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') return ` (${code})`;
    at = (at as { cause?: unknown }).cause;
  }
  return '';
}
