export { type AuditRecord, type AuditSink, FileAuditSink, MemoryAuditSink } from './audit.js';
export { AUDIT_LIMITS, boundedDetail } from './audit-detail.js';
export {
  BUDGET_EXHAUSTED,
  EVALUATION_BUDGET,
  isBudgetExhausted,
  StepBudget,
} from './budget.js';
export {
  CONSTRAINT_LIMITS,
  type ConstraintCheck,
  type ConstraintEngine,
  type ConstraintOptions,
  type ConstraintResult,
  compileConstraints,
  JSON_SCHEMA_DIALECT,
  MAX_CONSTRAINT_ERRORS,
} from './constraints.js';
export {
  rejectionEnvelope,
  type ValidateEnvelope,
  VERDICT_STATUS,
  verdictEnvelope,
} from './envelope.js';
export {
  CONFORMANCE_EVENT_TYPE,
  type ConformanceEvent,
  type ConformanceEventClaims,
  EMPTY_METADATA_HASH,
  signConformanceEvent,
} from './event.js';
export { EventEncoder } from './event-encoder.js';
export { type Evaluation, Kernel, type KernelOptions } from './kernel.js';
export {
  type Objective,
  type ObjectiveContext,
  type ObjectiveOutput,
  Operator,
  type OperatorOptions,
  type RunResult,
  type StepRecord,
} from './operator.js';
export {
  type AgenticProtocol,
  COMPILE_CACHE_SIZE,
  type CompiledProtocol,
  compileProtocol,
  PROTOCOL_LIMITS,
  type ProtocolIssue,
  type ProtocolRule,
  protocolHash,
  type Resolution,
  validateProtocol,
} from './protocol.js';
export {
  FileProtocolStore,
  MemoryProtocolStore,
  ProtocolRegistry,
  type ProtocolStore,
  REGISTRY_LIMITS,
  type RegistrationOwner,
} from './registry.js';
export {
  type Decision,
  decide,
  decideRequest,
  type ProtocolHeader,
  parseValidateRequest,
  type ValidateRequest,
} from './request.js';
export { resolve } from './resolve.js';
export {
  ALLOWED_OPERATORS,
  type CompiledRule,
  compileRule,
  EXCLUDED_OPERATORS,
  isTruthy,
  RULE_LIMITS,
} from './rules.js';
export {
  type RouteDecision,
  type RouteStatus,
  Switchboard,
  type SwitchboardIssue,
  type SwitchboardRoute,
  type SwitchboardSpec,
  validateSwitchboard,
} from './switchboard.js';
export {
  type ConstraintError,
  VERDICT_CLASSES,
  type Verdict,
  type VerdictClass,
  type VerdictDetail,
  type VerdictReason,
} from './verdict.js';
export {
  type EventIssue,
  type EventVerification,
  type VerifyEventOptions,
  verifyConformanceEvent,
} from './verify-event.js';
