import { ASSET_KINDS } from './asset-types.js';
import {
  HASH_SCHEMA,
  ID_SCHEMA,
  POLICY_SCHEMA,
  PROVENANCE_SCHEMA,
  TIME_SCHEMA,
} from './governance-schema.js';
import { DECLASSIFICATIONS } from './governance-types.js';

/** JSON Schema 2020-12 of a cognitive asset ({@link parseCognitiveAsset} checks the rest). */
export const COGNITIVE_ASSET_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://canonry.dev/schemas/cognitive-asset.v1.json',
  title: 'Cognitive asset (canonry, GCS governance fields)',
  type: 'object',
  additionalProperties: false,
  required: ['asset_id', 'asset_kind', 'content_hash', 'created_at', 'governance', 'provenance'],
  properties: {
    asset_id: ID_SCHEMA,
    asset_kind: { enum: ASSET_KINDS },
    content_hash: HASH_SCHEMA,
    created_at: TIME_SCHEMA,
    source_node: ID_SCHEMA,
    tenant_scope: ID_SCHEMA,
    owner_id: ID_SCHEMA,
    journal_ref: {
      type: 'object',
      additionalProperties: false,
      required: ['project', 'seq', 'hash'],
      properties: {
        project: ID_SCHEMA,
        seq: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        hash: HASH_SCHEMA,
      },
    },
    governance: POLICY_SCHEMA,
    provenance: PROVENANCE_SCHEMA,
    declassified_from: {
      type: 'object',
      additionalProperties: false,
      required: ['asset_id', 'policy_hash', 'transformation', 'approved_by'],
      properties: {
        asset_id: ID_SCHEMA,
        policy_hash: HASH_SCHEMA,
        transformation: { enum: DECLASSIFICATIONS },
        approved_by: ID_SCHEMA,
      },
    },
  },
} as const;
