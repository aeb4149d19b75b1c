import { modelError } from './errors.js';
import { countTokens } from './tokens.js';
import type { ModelPort, ModelRequest, ModelResponse } from './types.js';

/** One scripted answer: when `match` accepts a request, `respond` writes the model's text. */
export interface ScriptRule {
  /** A pattern tested against the last user message, or a predicate over the whole request. */
  readonly match: RegExp | ((request: ModelRequest) => boolean);
  readonly respond: (request: ModelRequest) => string;
}

/** The content of the last `user` message of a request ('' when there is none). */
export function lastUserContent(request: ModelRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role === 'user') return message.content;
  }
  return '';
}

/**
 * A deterministic model: the first rule that matches answers; no match is `MODEL_OUTPUT_INVALID`.
 * Usage is counted with {@link countTokens}, so budgets behave as with a real model.
 */
export class ScriptedModel implements ModelPort {
  readonly route: string;
  readonly #rules: readonly ScriptRule[];

  constructor(rules: readonly ScriptRule[], route = 'scripted') {
    this.#rules = [...rules];
    this.route = route;
  }

  /** Answers from the first matching rule. */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const text = lastUserContent(request);
    for (const rule of this.#rules) {
      const hit =
        typeof rule.match === 'function' ? rule.match(request) : text.search(rule.match) >= 0;
      if (!hit) continue;
      const answer = rule.respond(request);
      return {
        text: answer,
        model: this.route,
        usage: {
          prompt_tokens: request.messages.reduce((sum, m) => sum + countTokens(m.content), 0),
          completion_tokens: countTokens(answer),
        },
      };
    }
    throw modelError(
      'MODEL_OUTPUT_INVALID',
      `${this.route}: no scripted rule matches the request`,
      this.route,
    );
  }
}
