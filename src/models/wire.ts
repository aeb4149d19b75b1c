import { fail, ok, type Result } from '../core/index.js';
import type { ModelRequest, ModelResponse } from './types.js';

/** The chat-completions request body for a model request. */
export function requestBody(model: string, request: ModelRequest): Record<string, unknown> {
  return {
    model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    ...(request.schema === undefined
      ? {}
      : {
          response_format: {
            type: 'json_schema',
            json_schema: { name: request.schema.name, schema: request.schema.schema, strict: true },
          },
        }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
  };
}

interface CompletionBody {
  model?: unknown;
  choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/** A model name a server reports, kept only when it reads as one (it is journaled with the answer). */
const MODEL_NAME = /^[\x21-\x7e]{1,200}$/;

const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * The content of the first choice of a chat-completions body, read as untrusted JSON; a body with no
 * choices, empty or null content, or a refusal is a failure naming why.
 */
export function completionText(value: unknown, model: string): Result<ModelResponse, string> {
  const body = (typeof value === 'object' && value !== null ? value : {}) as CompletionBody;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = typeof choice === 'object' && choice !== null ? choice.message : undefined;
  if (typeof message?.refusal === 'string' && message.refusal !== '') {
    // Whole: the caller scrubs secrets from it before it cuts it.
    return fail(`the model refused: ${message.refusal}`);
  }
  if (typeof message?.content !== 'string' || message.content === '') {
    return fail('the model returned no content');
  }
  const finish = (choice as { finish_reason?: unknown }).finish_reason;
  if (finish === 'length') {
    return fail('the answer was cut off at the token limit (finish_reason "length")');
  }
  if (finish === 'content_filter') {
    return fail('the answer was withheld by a content filter (finish_reason "content_filter")');
  }
  const usage = body.usage;
  return ok({
    text: message.content,
    model: typeof body.model === 'string' && MODEL_NAME.test(body.model) ? body.model : model,
    ...(count(usage?.prompt_tokens) && count(usage.completion_tokens)
      ? {
          usage: {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
          },
        }
      : {}),
  });
}
