import {
  BOUNDARY_KINDS,
  DECLASSIFICATIONS,
  EXPORT_POLICIES,
  INFERENCE_POLICIES,
  PRIVACY_SCOPES,
  REPLICATION_POLICIES,
  TRAINING_POLICIES,
} from './governance-types.js';

/**
 * JSON Schema 2020-12 pieces for governance, shared by the asset and the event schemas. The schema
 * states the shape; what it cannot state (a scope's required constraint kind, sets sorted and without
 * duplicates in an event, `*` alone) the parsers check, and their tests hold the two together.
 */
export const ID_SCHEMA = { type: 'string', pattern: '^[\\x21-\\x7e]{1,256}$' } as const;
export const HASH_SCHEMA = { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' } as const;
export const UUID_SCHEMA = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
} as const;
export const TIME_SCHEMA = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
} as const;
const SET_SCHEMA = { type: 'array', maxItems: 1024, items: ID_SCHEMA } as const;
const WHO_SCHEMA = { ...SET_SCHEMA, minItems: 1 } as const;

/** The governance members, as properties. */
export const GOVERNANCE_PROPERTIES = {
  privacy_scope: { enum: PRIVACY_SCOPES },
  privacy_boundary: {
    type: 'object',
    additionalProperties: false,
    required: ['constraints'],
    properties: {
      constraints: {
        type: 'array',
        maxItems: 1024,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'id'],
          properties: { kind: { enum: BOUNDARY_KINDS }, id: ID_SCHEMA },
        },
      },
    },
  },
  allowed_principals: WHO_SCHEMA,
  allowed_roles: WHO_SCHEMA,
  replication_policy: { enum: REPLICATION_POLICIES },
  inference_policy: { enum: INFERENCE_POLICIES },
  training_policy: { enum: TRAINING_POLICIES },
  export_policy: { enum: EXPORT_POLICIES },
  retention_policy: {
    type: 'string',
    pattern: '^(indefinite|expires-at:(0|[1-9][0-9]{0,15})|ref:[\\x21-\\x7e]{1,252})$',
  },
  policy_tags: SET_SCHEMA,
} as const;

export const GOVERNANCE_REQUIRED = Object.keys(GOVERNANCE_PROPERTIES);

/** A governance object alone (a declassification ceiling). */
export const GOVERNANCE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: GOVERNANCE_REQUIRED,
  properties: GOVERNANCE_PROPERTIES,
} as const;

/** A source's policy: governance and optional declassification rules. */
export const POLICY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: GOVERNANCE_REQUIRED,
  properties: {
    ...GOVERNANCE_PROPERTIES,
    declassification: {
      type: 'array',
      maxItems: 16,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['transformation', 'ceiling', 'approver_roles'],
        properties: {
          transformation: { enum: DECLASSIFICATIONS },
          ceiling: GOVERNANCE_SCHEMA,
          approver_roles: WHO_SCHEMA,
        },
      },
    },
  },
} as const;

export const PROVENANCE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['derived_from', 'execution_claims', 'verification_results'],
  properties: {
    derived_from: SET_SCHEMA,
    execution_claims: SET_SCHEMA,
    verification_results: SET_SCHEMA,
  },
} as const;
