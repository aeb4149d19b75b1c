export {
  type CanonryConfig,
  type ConfigInput,
  DEFAULT_CONFIG,
  resolveConfig,
} from './config.js';
export { type CanonryRuntime, createCanonry, type RuntimeOptions } from './create-canonry.js';
export { JournalAuditSink, KERNEL_AUDIT_PROJECT } from './journal-audit-sink.js';
export {
  runLcsmStory,
  STORY_CLASSIFIER,
  STORY_PROJECT,
  type StoryResult,
  type StoryStep,
} from './lcsm-story.js';
export { dataPaths } from './paths.js';
