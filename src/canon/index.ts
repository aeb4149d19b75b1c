export type { Approval } from './approval.js';
export {
  artifactStatus,
  artifactStatusesOf,
  artifactStatusPage,
  registerArtifact,
  reviewArtifact,
} from './artifact-ops.js';
export {
  type ArtifactManifest,
  type ArtifactState,
  type ArtifactStatus,
  artifactInput,
  artifactState,
} from './artifacts.js';
export {
  BATCH_INTENTS,
  type BatchOptions,
  type BatchOutcome,
  type HeldItem,
  MAX_BATCH,
  MAX_BATCH_ENTRIES,
} from './batch.js';
export { Canon, type CanonOptions, type Viewer } from './canon.js';
export { renderCapsule } from './capsule.js';
export {
  type CommitView,
  cascade,
  commitView,
  type DependencyState,
  type NoteState,
} from './cascade.js';
export {
  type ArchivedMessage,
  CLASSIFICATION_OUTCOMES,
  type Classification,
  type ClassificationOutcome,
  type Classifier,
  type ClassifierInput,
  type ClassifierResult,
  type MessageRole,
  type ProposalDraft,
} from './classification.js';
export {
  CLASSIFIER_KIND,
  type ClassifierSettings,
  classifierSettings,
  importClassifierConfig,
  putSubjects,
  removeSubject,
  subjectCounts,
} from './classifier-config.js';
export {
  authorBounds,
  boundIssues,
  citesSource,
  DEFAULT_SCRIPTED_CONFIG,
  isMachineAuthor,
  ModelClassifier,
  type ModelClassifierOptions,
  parseScriptedConfig,
  SCRIPTED_CONFIG_SCHEMA,
  ScriptedClassifier,
  type ScriptedConfig,
  type SubjectConfig,
} from './classify/index.js';
export type { ProposalOutcome } from './committing.js';
export {
  type CheckResult,
  COMPARISON_CHECKS,
  type Comparison,
  type ComparisonCheckName,
  type ComparisonChecks,
  compareNotes,
  isConcern,
} from './compare.js';
export type { CanonCounts } from './counts.js';
export { type DisputedNote, openClaims } from './disputes.js';
export {
  EFFECTIVE_STATES,
  type EffectiveState,
  type EffectiveWindow,
  effectiveState,
} from './effective.js';
export {
  ARTIFACT,
  CANON_ENTRY_KINDS,
  CLASSIFICATION,
  CLASSIFICATION_FAILED,
  CLASSIFIER,
  COMMIT,
  MESSAGE,
  PROPOSAL,
  RECOMPARE,
  REJECT,
} from './entry-kinds.js';
export { DEFAULT_GATE_PROTOCOL, type GateInput, type GateLabel, type GateVerdict } from './gate.js';
export type { DependentKind, Edge } from './graph.js';
export {
  archiveMessage,
  type IntakeResult,
  intake,
  type MessageInput,
  messageInput,
  reclassify,
  type UnclassifiedMessage,
  unclassifiedMessages,
} from './intake.js';
export {
  CLASSIFICATION_FAILED_KIND,
  CLASSIFICATION_FAILURES,
  type ClassificationFailure,
  type ClassificationFailureCode,
  FAILURE_LIMITS,
} from './intake-failure.js';
export { mayReadEntry, type RedactedEntry, readableEntries } from './journal-view.js';
export {
  type GraphArtifact,
  type GraphNode,
  type GraphNote,
  type GraphUnknown,
  NOTE_GRAPH_MAX,
  type NoteGraph,
  noteGraph,
} from './note-graph.js';
export type {
  ArtifactPageQuery,
  ObjectPageQuery,
  PageQuery,
  ProposalFilter,
  ProposalPageQuery,
  UnclassifiedPageQuery,
} from './page.js';
export {
  type Audience,
  audienceOf,
  mayRead,
  messageAudience,
  objectAudience,
  proposalAudience,
  SHARED,
  versionAudience,
} from './planes.js';
export { CANON_KINDS, CANON_PROJECTION } from './projection.js';
export {
  type Epistemic,
  PROVENANCE_DEPENDENTS,
  PROVENANCE_HISTORY,
  type Provenance,
  provenance,
} from './provenance.js';
export { CanonReader } from './read.js';
export type {
  ClaimInput,
  ClassifierBody,
  ClassifierRecord,
  CommitBody,
  JournalOperation,
  ProposalRecord,
  ProposalStatus,
} from './records.js';
export { CANON_MIGRATIONS } from './schema.js';
export { AUTHORITY, classifyStakes, withinAuthority } from './stakes.js';
export {
  ACCEPTANCE_STATES,
  type AcceptanceState,
  type CanonObject,
  CLAIM_ID,
  CLAIM_STATES,
  type Claim,
  type ClaimHolder,
  type ClaimState,
  CONFIDENCE_STATES,
  type ConfidenceState,
  type DependencyPin,
  type DisputeResolution,
  DRAFT_INTENTS,
  MESSAGE_ID,
  MESSAGE_ID_RULE,
  MESSAGE_VISIBILITIES,
  type MessageVisibility,
  type NoteContent,
  type NoteVersion,
  OBJECT_ID,
  OBJECT_STATUSES,
  OBJECT_TYPES,
  type ObjectStatus,
  type ObjectType,
  PROPOSAL_ID,
  PROPOSAL_INTENTS,
  type Principal,
  type ProposalInput,
  type ProposalIntent,
  ROLES,
  type Role,
  type SourceRef,
  STAKES,
  type Stakes,
  VISIBILITIES,
  type Visibility,
} from './types.js';
export {
  type NoteDefaults,
  noteContent,
  objectId,
  proposalInput,
  refuseAuthorityClaims,
} from './validate.js';
export {
  type WorkingNote,
  type WorkingSet,
  type WorkingSetRequest,
  workingSet,
} from './working-set.js';
