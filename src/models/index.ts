export { Breaker, type BreakerState } from './breaker.js';
export { MODEL_ENV, modelConfigFromEnv } from './env.js';
export {
  isModelOutage,
  type ModelErrorCode,
  type ModelFailureFacts,
  modelError,
  modelErrorCode,
} from './errors.js';
export { OpenAIModel, type OpenAIModelConfig } from './openai.js';
export {
  DEFAULT_MODEL_POLICY,
  MAX_PAUSE_MS,
  MAX_RETRY_AFTER_MS,
  MODEL_POLICY_LIMITS,
  type ModelCallPolicy,
  modelPolicy,
  retryAfterMs,
  worstWaitMs,
} from './policy.js';
export {
  type ModelRecording,
  parseRecordings,
  RecordingModel,
  ReplayModel,
  recordingOf,
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
export { strictObject } from './types.js';
