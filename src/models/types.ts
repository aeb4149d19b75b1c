import type { JsonObject } from '../core/index.js';

/** The roles a chat message can carry on the wire. */
export type ModelRole = 'system' | 'user' | 'assistant';

/** One chat message sent to a model. */
export interface ModelMessage {
  readonly role: ModelRole;
  readonly content: string;
}

/**
 * A closed object for a structured-output schema: every property required and nothing else
 * allowed — what OpenAI's strict mode (and local guided decoders) demand; what a caller treats as
 * optional is nullable or an empty array.
 */
export function strictObject(properties: JsonObject): JsonObject {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** A JSON schema the model's output must follow (structured output). */
export interface ModelSchema {
  /** A name the server shows the model: a-z, A-Z, 0-9, `_` and `-`, at most 64 characters. */
  readonly name: string;
  readonly schema: JsonObject;
}

/** What canonry asks a model for: a chat, optionally constrained to a JSON schema. */
export interface ModelRequest {
  readonly messages: readonly ModelMessage[];
  readonly schema?: ModelSchema;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

/** Token counts a model reported for one request. */
export interface ModelUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
}

/** What a model answered: the raw content, untrusted until its caller validates it. */
export interface ModelResponse {
  /** The raw content of the answer. */
  readonly text: string;
  /** The model that answered, as the server named it. */
  readonly model: string;
  readonly usage?: ModelUsage;
}

/**
 * The model port: a route name and one call. Adapters throw `MODEL_UNAVAILABLE` when the model cannot
 * be reached and `MODEL_OUTPUT_INVALID` when it answers without usable content.
 */
export interface ModelPort {
  /** A stable name for the route (`openai:<model>`, `scripted`, `replay`), shown in classifications. */
  readonly route: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
