export {
  AIR_METRICS,
  airSettingsFor,
  gateFor,
  IN_FORCE_PREFIX,
  kernelVerdictSamples,
  PROTOCOL_METRICS,
  type ProtocolInForce,
  protocolInForce,
  relayWindowSamples,
  windowMetrics,
} from './activation.js';
export { auditRecordBound } from './audit-record-bound.js';
export {
  type BackupOptions,
  type BackupSummary,
  backupDatabase,
  fileWriteFailure,
  KEYS_NOT_INCLUDED,
} from './backup.js';
export {
  type CanonryConfig,
  type CheckpointPolicy,
  type ConfigInput,
  DEFAULT_CONFIG,
  type ForwardConfig,
  type HttpTimeouts,
  parseCorsOrigins,
  parseRateLimit,
  type RateLimit,
  resolveConfig,
  type VerifyOnStart,
} from './config.js';
export type { CanonryRuntime, RuntimeOptions } from './create-canonry.js';
export type { CopiedChain } from './database-copy.js';
export { runtimeEntryKinds } from './entry-kinds.js';
export { type EvolutionOptions, eventVerifier, eventVerifierOf } from './evolution.js';
export type { Health } from './health.js';
export {
  AUDIT_ENTRY_KIND,
  AUDIT_ENTRY_MAX_BYTES,
  AUDIT_ENTRY_MAX_RECORDS,
  type AuditBatching,
  type AuditEntryBody,
  JournalAuditSink,
  KERNEL_AUDIT_PROJECT,
  VERDICT,
  VERDICTS,
  type VerdictBody,
} from './journal-audit-sink.js';
export { createCanonry, describeClassifier, runLcsmStory } from './lazy.js';
export type { StoryResult, StoryStep } from './lcsm-story.js';
export type { RuntimeLogger } from './logger.js';
export { type OpenedTokens, openTokens } from './open-tokens.js';
export {
  checkOutputPath,
  type OutputTarget,
  outputRefusal,
  publishOutput,
} from './output-file.js';
export { dataPaths } from './paths.js';
export {
  buildPromotionRunner,
  GATE_LABELS,
  promotionsOf,
  type ReplayCase,
  type ReplayCaseSource,
  RUNTIME_CHECKS,
  replayValidator,
  useReplayCases,
} from './promotions.js';
export {
  JournalProtocolStore,
  PROTOCOL,
  PROTOCOL_PROJECTION,
  REGISTRY_PROJECT,
  type RegistrationBody,
} from './protocol-store.js';
export { type KernelReplayInputs, kernelVerdictReplayer } from './replay-kernel.js';
export {
  type JournaledWindowAnswers,
  journaledWindowAnswers,
  journalRelayInputs,
  type RelayReplayInputs,
  relayStateDigest,
  relayWindowOutcomeOf,
  relayWindowReplayer,
} from './replay-relay.js';
export { type RestoreOptions, type RestoreSummary, restoreDatabase } from './restore.js';
export { refuseKeyringOverBoundStore } from './store-binding.js';
export { STORY_PROJECT } from './story-project.js';
export { TOKEN_ISSUED, TOKEN_REVOKED, type TokenEventBody } from './token-recorder.js';
