export {
  type CanonryConfig,
  type CheckpointPolicy,
  type ConfigInput,
  DEFAULT_CONFIG,
  type HttpTimeouts,
  parseRateLimit,
  type RateLimit,
  resolveConfig,
  type VerifyOnStart,
} from './config.js';
export { type CanonryRuntime, createCanonry, type RuntimeOptions } from './create-canonry.js';
export type { Health } from './health.js';
export { JournalAuditSink, KERNEL_AUDIT_PROJECT } from './journal-audit-sink.js';
export {
  runLcsmStory,
  STORY_CLASSIFIER,
  STORY_PROJECT,
  type StoryResult,
  type StoryStep,
} from './lcsm-story.js';
export type { RuntimeLogger } from './logger.js';
export { dataPaths } from './paths.js';
export { JournalProtocolStore, PROTOCOL_PROJECTION, REGISTRY_PROJECT } from './protocol-store.js';
