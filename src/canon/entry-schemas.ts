import { bodySchema } from '../journal/index.js';
import {
  CONFIDENCE_STATES,
  MESSAGE_VISIBILITIES,
  OBJECT_STATUSES,
  OBJECT_TYPES,
  PROPOSAL_INTENTS,
  ROLES,
  VISIBILITIES,
} from './types.js';

/**
 * Schema fragments for canon's entry bodies. Each names what canon reads back from an entry and
 * leaves the rest open: a schema must accept every body the version ever wrote (fields were added
 * over time and older entries lack them), so fields are required only if they were always written.
 */

export const { text, hash, nullable, list, oneOf, object } = bodySchema;

export const principal = object({ id: text, project: text, role: oneOf(ROLES) });

const source = object({
  message_id: text,
  span: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'integer' } },
  quote: text,
});

export const noteContent = object(
  {
    object_type: oneOf(OBJECT_TYPES),
    title: text,
    text,
    confidence_state: oneOf(CONFIDENCE_STATES),
    status: oneOf(OBJECT_STATUSES),
    visibility: oneOf(VISIBILITIES),
    sources: list(source),
    dependency_refs: list(text),
  },
  { dependency_versions: list(object({ object_id: text, version_hash: hash })) },
);

export const noteVersion = object(
  {
    note_id: text,
    version_id: { type: 'integer', minimum: 1 },
    parent_version_hash: nullable(hash),
    content: noteContent,
    sources: list(source),
    actor: text,
    timestamp: text,
    version_hash: hash,
  },
  { claims: list({ type: 'object' }), resolution: { type: 'object' } },
);

export const gateVerdict = object({
  label: oneOf(['AUTO_COMMIT', 'REQUIRE_CONFIRMATION', 'HARD_STOP', 'REJECT']),
  protocol_hash: hash,
  event: nullable({ type: 'object' }),
  event_hash: nullable(hash),
});

export const comparison = object({
  current: {},
  candidate: {},
  checks: { type: 'object' },
  stakes: {},
});

export const role = nullable(oneOf(ROLES));

export const proposal = object(
  {
    proposal_id: text,
    object_id: text,
    intent: oneOf(PROPOSAL_INTENTS),
    base_version: nullable(hash),
    candidate: noteContent,
    supersedes: list(text),
    proposer: principal,
    comparison,
    gate: gateVerdict,
    required_role: role,
    status: oneOf(['pending', 'committed', 'rejected']),
    decided_by: nullable(principal),
    reason: nullable(text),
  },
  {
    restore_version: nullable(hash),
    message_id: nullable(text),
    rationale: nullable(text),
    classifier: nullable(text),
    from_suggestion: { type: 'boolean' },
    claim: object({ statement: text, sources: list(source), confidence_state: text }),
    claim_id: text,
  },
);

/** The §7 operation: canon reads back its type and approver (older commits carry little else). */
export const operation = object(
  {
    operation_type: oneOf(PROPOSAL_INTENTS),
    authority_basis: object({ approver: nullable(principal) }, { proposer: principal }),
  },
  {
    operation_id: text,
    target_object: text,
    prior_version: nullable(hash),
    candidate_version: hash,
    acting_actor: text,
    policy_result: { type: 'object' },
    timestamp: text,
    correlation_id: text,
  },
);

export const message = object(
  {
    message_id: text,
    project: text,
    text,
    role: oneOf(['user', 'assistant', 'agent', 'tool', 'system']),
    actor: text,
    actor_role: oneOf(ROLES),
    captured_at: text,
  },
  { visibility: oneOf(MESSAGE_VISIBILITIES) },
);

export const manifest = object({
  artifact_id: text,
  artifact_version: { type: 'integer' },
  title: text,
  input_refs: list(text),
  canonical_note_versions: list(object({ object_id: text, version_hash: hash })),
  tool_or_model_refs: list(text),
  output_digest: hash,
  verification_refs: list(text),
  acceptance_state: text,
});

export const classification = object({
  outcome: text,
  touched: list(text),
  drafts: list({ type: 'object' }),
  rationale: text,
  classifier: text,
});
