export { journaledAnswer, journaledAnswerSoon, rawAnswer } from './answers.js';
export { agentOf, type CompletedWindow, MAX_OUTPUT_CHARS } from './complete.js';
export { checkContribution, parseContribution } from './contribution.js';
export {
  CONTRIBUTION_LIMITS,
  CONTRIBUTION_SCHEMA,
  CONTRIBUTION_SCHEMA_NAME,
  CONTRIBUTION_VALUE_SCHEMA,
} from './contribution-schema.js';
export {
  applyChange,
  type CsoChange,
  type CsoHeader,
  csoChange,
  type ItemsChange,
} from './cso-change.js';
export { csoDigest, itemDigest } from './cso-digest.js';
export { CSO_HMAC_PATTERN, CSO_SCHEMA, CSO_SCHEMA_VERSION, parseCso } from './cso-schema.js';
export {
  type ChainCheck,
  checkChain,
  csoBytes,
  csoId,
  sealCso,
  sessionGenesis,
} from './cso-seal.js';
export { startDeflateThread, stopDeflateThread } from './deflate-thread.js';
export {
  RELAY_ENTRY_KINDS,
  RELAY_HALT,
  RELAY_SESSION,
  RELAY_WINDOW,
  sessionEntryOf,
  windowEntryOf,
} from './entry-kinds.js';
export { extractFromText, mergeExtracted } from './extract/index.js';
export { RELAY_GATE_PROTOCOL } from './gate.js';
export { goalFor, revisionGoal } from './goal.js';
export { DependencyIndex, edgesOf, invalidateByEdgeScan } from './graph.js';
export { relayHeaders } from './headers.js';
export { ANSWER_LIMITS, CSO_LIMITS, MAX_REVISIONS } from './limits.js';
export { mergeContribution } from './merge.js';
export { contextPacketHash, type PreparedWindow } from './prepare.js';
export { RELAY_PROJECTION } from './projection.js';
export { buildWindowPrompt, windowModelRequest } from './prompt.js';
export { type RecentWindow, RelayReader, type SessionRow } from './reader.js';
export {
  type AirSettingsFor,
  type PromotedAirSettings,
  Relay,
  type RelayOptions,
} from './relay.js';
export type { RelayRun, RunOptions } from './run.js';
export { RELAY_MIGRATIONS } from './schema.js';
export { SESSION_INPUT_SCHEMA, SESSION_LIMITS } from './session-input.js';
export type {
  Invalidation,
  JournaledAnswer,
  ProjectedWindowEntry,
  RelayHaltRecord,
  RelaySessionRecord,
  RelaySessionView,
  RelayWindowEntry,
  RelayWindowRecord,
  RevisionEvent,
  SessionPromotion,
  SessionStatus,
  UnverifiedPolicy,
  WindowKind,
} from './session-types.js';
export * from './types.js';
export { verifyCso } from './verify.js';
export type { ChainReport } from './verify-session.js';
