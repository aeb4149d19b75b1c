export { MODEL_ENV, modelConfigFromEnv } from './env.js';
export { type ModelErrorCode, modelError, modelErrorCode } from './errors.js';
export { OpenAIModel, type OpenAIModelConfig } from './openai.js';
export {
  type ModelRecording,
  parseRecordings,
  RecordingModel,
  ReplayModel,
  requestKey,
} from './replay.js';
export { lastUserContent, ScriptedModel, type ScriptRule } from './scripted.js';
export { countTokens, TOKEN_ENCODING } from './tokens.js';
export type {
  ModelMessage,
  ModelPort,
  ModelRequest,
  ModelResponse,
  ModelRole,
  ModelSchema,
  ModelUsage,
} from './types.js';
