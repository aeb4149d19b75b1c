import { CAPABILITIES, CREATORS, EVENT_TYPES, READOUT_KINDS } from './event-types.js';
import {
  GOVERNANCE_PROPERTIES,
  GOVERNANCE_REQUIRED,
  HASH_SCHEMA,
  ID_SCHEMA,
  PROVENANCE_SCHEMA,
  TIME_SCHEMA,
  UUID_SCHEMA,
} from './governance-schema.js';

const IDS = { type: 'array', maxItems: 1024, items: ID_SCHEMA } as const;
const UNIT = { type: 'number', minimum: 0, maximum: 1 } as const;
const SPEC_REQUIRED = [
  'schema_version',
  'event_id',
  'request_id',
  'event_type',
  'source_assets',
  'source_policy_hashes',
  'model_and_expert_versions',
  'adaptive_artifact_refs',
  'policy_hash',
  'creator',
  'source_node',
  ...GOVERNANCE_REQUIRED,
  'provenance',
  'outcome',
  'scores',
  'created_at',
  'signing_identity',
  'signature',
];

const PROPERTIES = {
  schema_version: {
    type: 'string',
    pattern: '^gcs\\.qualified-cognitive-event\\.v1(\\.[1-9][0-9]{0,5})?$',
  },
  event_id: UUID_SCHEMA,
  request_id: UUID_SCHEMA,
  session_id: UUID_SCHEMA,
  event_type: { enum: EVENT_TYPES },
  source_assets: { ...IDS, minItems: 1 },
  source_policy_hashes: { type: 'array', minItems: 1, maxItems: 1024, items: HASH_SCHEMA },
  model_and_expert_versions: IDS,
  adaptive_artifact_refs: {
    type: 'object',
    additionalProperties: false,
    properties: {
      model_lineage_id: ID_SCHEMA,
      target_expert_id: ID_SCHEMA,
      capability: { enum: CAPABILITIES },
      judgment_family: ID_SCHEMA,
      distillation_view_ref: ID_SCHEMA,
      state_shard_ref: ID_SCHEMA,
      branch_shard_ref: ID_SCHEMA,
      adapter_or_head_version: ID_SCHEMA,
      readout_kind: { enum: READOUT_KINDS },
    },
  },
  policy_hash: HASH_SCHEMA,
  tenant_scope: ID_SCHEMA,
  owner_id: ID_SCHEMA,
  creator: { enum: CREATORS },
  source_node: ID_SCHEMA,
  ...GOVERNANCE_PROPERTIES,
  provenance: PROVENANCE_SCHEMA,
  outcome: { type: 'object' },
  scores: {
    type: 'object',
    additionalProperties: false,
    properties: {
      confidence: UNIT,
      verification: UNIT,
      grounding: UNIT,
      execution_success: UNIT,
      user_feedback: UNIT,
    },
  },
  created_at: TIME_SCHEMA,
  signing_identity: HASH_SCHEMA,
  signing_certificate: { type: 'string', minLength: 1, maxLength: 16384 },
  signature: { type: 'string', pattern: '^[A-Za-z0-9_-]{86}$' },
  replay: {
    type: 'object',
    additionalProperties: false,
    properties: {
      plan_ref: ID_SCHEMA,
      components: {
        type: 'object',
        additionalProperties: false,
        properties: {
          model: ID_SCHEMA,
          adapter: ID_SCHEMA,
          tokenizer_template: ID_SCHEMA,
          quantization: ID_SCHEMA,
          processor: ID_SCHEMA,
          runtime: ID_SCHEMA,
        },
      },
      policy_versions: IDS,
      context_packet_hash: HASH_SCHEMA,
      tool_contracts: IDS,
      seeds: {
        type: 'array',
        maxItems: 64,
        items: {
          type: 'integer',
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
      },
      execution_class: ID_SCHEMA,
      validators: IDS,
    },
  },
} as const;

/**
 * JSON Schema 2020-12 of `gcs.qualified-cognitive-event.v1`: every member of the GCS event and
 * canonry's optional `signing_certificate` and `replay`. Major 1 is the decoding contract; a newer
 * minor (`v1.<n>`) may add optional members, which this schema lets through only for that minor.
 * {@link parseQualifiedEvent} checks what a schema cannot say (sets sorted and unique, a scope's
 * constraint kinds, `*` alone, the outcome's bounds).
 */
export const QUALIFIED_EVENT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://canonry.dev/schemas/gcs.qualified-cognitive-event.v1.json',
  title: 'GCS qualified cognitive event, major version 1',
  type: 'object',
  required: SPEC_REQUIRED,
  properties: PROPERTIES,
  if: { properties: { schema_version: { const: 'gcs.qualified-cognitive-event.v1' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword
  then: { propertyNames: { enum: Object.keys(PROPERTIES) } },
} as const;
