/**
 * Evolution (GCS "Cognitive Evolution Coordination"): qualified cognitive events, cognitive assets
 * and their governance, governance resolution by intersection, declassification, dispatch-path
 * admission, signing and offline verification (pure: no storage, no clock unless given one); and
 * the coordinator: the event store (journal entries and their projection), asset sources and
 * adaptive targets (ports), dispatch with retries and dead letters, signed webhooks.
 */

export {
  ADMISSION_ENTRY,
  type Admission,
  type AdmissionBody,
  type AdmissionPageQuery,
  admissionPage,
  admissionsOf,
  admittingProjects,
  standingAdmissions,
} from './admission.js';
export { entryAsset, entryAssetId, projectGovernance } from './asset-of-entry.js';
export { COGNITIVE_ASSET_SCHEMA } from './asset-schema.js';
export {
  ASSET_KINDS,
  type AssetKind,
  type CognitiveAsset,
  type DeclassificationRecord,
  type JournalRef,
  type Provenance,
} from './asset-types.js';
export { EXCLUSIVE_KINDS } from './boundary.js';
export {
  type CoordinatorOptions,
  type CoordinatorRole,
  type CoordinatorStats,
  EVOLUTION_ACTOR,
  EvolutionCoordinator,
  type RetryPolicy,
} from './coordinator.js';
export { type DeclassificationRequest, declassify } from './declassify.js';
export { admitForPath, type DispatchPath } from './dispatch-path.js';
export {
  type BenchmarkBody,
  DELIVERY_OUTCOMES,
  type DeliveryBody,
  type DeliveryOutcome,
  EVOLUTION_BENCHMARK,
  EVOLUTION_DELIVERY,
  EVOLUTION_ENTRY_KINDS,
  EVOLUTION_EVENT,
  EVOLUTION_FEEDBACK,
  type EventEntryBody,
  type EventOrigin,
  type FeedbackBody,
} from './entry-kinds.js';
export { QUALIFIED_EVENT_SCHEMA } from './event-schema.js';
export {
  type EventFilter,
  EventStore,
  type EventsReport,
  MAX_VERIFY_PAGE,
  type StoredDelivery,
  type StoredEvent,
  type StoredEventRow,
} from './event-store.js';
export {
  type AdaptiveArtifactRefs,
  CAPABILITIES,
  type Capability,
  CREATORS,
  type Creator,
  EVENT_TYPES,
  type EventType,
  type QualifiedEvent,
  type QualifiedEventClaims,
  READOUT_KINDS,
  type ReadoutKind,
  type ReplayContract,
  type Scores,
} from './event-types.js';
export { GOVERNANCE_SCHEMA, POLICY_SCHEMA } from './governance-schema.js';
export {
  ANYONE,
  BOUNDARY_KINDS,
  type BoundaryConstraint,
  type BoundaryKind,
  DECLASSIFICATIONS,
  type Declassification,
  type DeclassificationRule,
  EXPORT_POLICIES,
  type ExportPolicy,
  type Governance,
  type GovernancePolicy,
  INFERENCE_POLICIES,
  type InferencePolicy,
  PRIVACY_SCOPES,
  type PrivacyBoundary,
  type PrivacyScope,
  REPLICATION_POLICIES,
  type ReplicationPolicy,
  TRAINING_POLICIES,
  type TrainingPolicy,
} from './governance-types.js';
export { uuidFrom } from './ids.js';
export type { EvolutionIssue, EvolutionIssueCode } from './issues.js';
export { CoordinatorLease, type LeaseHolder, type LeaseOptions } from './lease.js';
export { parseCognitiveAsset } from './parse-asset.js';
export { type ParsedQualifiedEvent, parseQualifiedEvent } from './parse-event.js';
export {
  EXPORT_OPERATIONS,
  type ExportOperation,
  INFERENCE_LOCATIONS,
  type InferenceLocation,
  REPLICATION_DESTINATIONS,
  type ReplicationDestination,
  TRAINING_FORMS,
  TRAINING_LOCATIONS,
  type TrainingForm,
  type TrainingLocation,
} from './permitted-sets.js';
export { effectivePolicyHash, governanceOf, sourcePolicyHash } from './policy-hash.js';
export type {
  AssetSource,
  Delivery,
  EvolutionTarget,
  SourceContext,
  SourceItem,
  TargetIssue,
  TargetOutcome,
} from './ports.js';
export { EVOLUTION_PROJECTION } from './projection.js';
export {
  type ActivePromotion,
  activePromotions,
  names,
  type Placement,
  placeProject,
  placeSession,
  reachedProjects,
  reaches,
  replacedBaseline,
} from './promotion-activation.js';
export {
  CANARY_ACTOR,
  type PromotionActor,
  type PromotionRole,
  RUNTIME_ACTOR,
} from './promotion-actor.js';
export { inCanary } from './promotion-canary.js';
export { parseCandidate } from './promotion-candidate.js';
export { BUILT_IN_CHECKS, MAX_CANARY_SHARE, type PolicyCheck } from './promotion-checks.js';
export {
  CanaryCollector,
  type CanaryCollectorOptions,
  type CanarySample,
  type CollectorStats,
  type SampleReader,
} from './promotion-collector.js';
export { PROMOTION_ENTRY, type PromotionEntryBody } from './promotion-entry-kind.js';
export {
  applyStep,
  armMean,
  artifactAddress,
  canaryDecision,
  foldSteps,
  MAX_OBSERVATION_HISTORY,
  type PromotionIssue,
} from './promotion-machine.js';
export {
  type PublicationIssue,
  publishCandidate,
  verifyPublication,
} from './promotion-publication.js';
export {
  type PromotionReplayInputs,
  PromotionRunner,
  type PromotionRunnerOptions,
  type PromotionValidator,
} from './promotion-runner.js';
export {
  PROMOTION_CANDIDATE_SCHEMA,
  PROMOTION_LIMITS,
  PROMOTION_STEP_SCHEMA,
} from './promotion-schema.js';
export {
  type ArmTotals,
  CANARY_EVIDENCE,
  type CanaryMetric,
  type CanaryScope,
  PROMOTION_ARTIFACT_KINDS,
  PROMOTION_STAGES,
  type PromotionArtifactKind,
  type PromotionCandidate,
  type PromotionStage,
  type PromotionState,
  type PromotionStep,
  type PromotionStepName,
  type Publication,
  type PublicationClaims,
  type ValidationFailure,
} from './promotion-types.js';
export {
  type ReceivedEvent,
  type ReceiveOptions,
  receiveEvent,
  receiveWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookReceiveOptions,
  webhookSignature,
} from './receive.js';
export { firstDifference } from './replay-diff.js';
export { replayEvent } from './replay-event.js';
export {
  KERNEL_VERDICT_CLASS,
  type KernelVerdictOutcome,
  kernelVerdictOutcome,
  kernelVerdictOutcomeOf,
  RELAY_WINDOW_CLASS,
  type RelayWindowOutcome,
  relayWindowOutcome,
} from './replay-outcomes.js';
export type { ReplayDifference, Replayer, ReplayReport, ReplayResult } from './replay-types.js';
export {
  CONTEXT_SOURCES,
  type ContextPolicy,
  type ContextSource,
  type ResolvedGovernance,
  type ResolveOptions,
  resolveGovernance,
} from './resolve-governance.js';
export { type RetryClaim, RetryClaims } from './retry-claim.js';
export { EVOLUTION_MIGRATIONS } from './schema.js';
export {
  DECODED_MAJOR,
  EVENT_SCHEMA_FAMILY,
  EVENT_SCHEMA_VERSION,
  KNOWN_MINOR,
  readSchemaVersion,
  type SchemaVersion,
} from './schema-version.js';
export {
  type AssembleOptions,
  assembleQualifiedEvent,
  type EventDraft,
  eventBytes,
  signQualifiedEvent,
  type UnsignedClaims,
} from './sign-event.js';
export {
  BENCHMARK_SOURCE,
  BUILT_IN_SOURCES,
  EVOLUTION_SYSTEM_PROJECT,
  FEEDBACK_SOURCE,
  item as sourceItem,
  KERNEL_VERDICT_SOURCE,
} from './sources.js';
export {
  airTuningTarget,
  benchmarkTarget,
  type MemoryProposals,
  memoryTarget,
  protocolTarget,
  type VerifierSource,
} from './targets.js';
export {
  type EventSources,
  type EventTrustAnchor,
  type QualifiedEventVerification,
  QualifiedEventVerifier,
  verifyQualifiedEvent,
} from './verify-event.js';
export { type WebhookConfig, webhookTarget } from './webhook.js';
export { widerField } from './within.js';
