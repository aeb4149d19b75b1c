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
  choices?: { message?: { content?: unknown; refusal?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

/**
 * The content of the first choice of a chat-completions body, read as untrusted JSON; a body with no
 * choices, empty or null content, or a refusal is a failure naming why.
 */
export function completionText(value: unknown, model: string): Result<ModelResponse, string> {
  const body = (typeof value === 'object' && value !== null ? value : {}) as CompletionBody;
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = typeof choice === 'object' && choice !== null ? choice.message : undefined;
  if (typeof message?.refusal === 'string' && message.refusal !== '') {
    return fail(`the model refused: ${message.refusal.slice(0, 300)}`);
  }
  if (typeof message?.content !== 'string' || message.content === '') {
    return fail('the model returned no content');
  }
  const usage = body.usage;
  return ok({
    text: message.content,
    model: typeof body.model === 'string' ? body.model : model,
    ...(typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
      ? {
          usage: {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
          },
        }
      : {}),
  });
}
