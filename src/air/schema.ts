import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { CanonryError } from '../core/index.js';
import { AIR_LIMITS as L } from './thresholds.js';
import { AIR_STATE_VERSION, type AirPacket, type AirState, type Iap } from './types.js';

/** The version of {@link IAP_SCHEMA}; a change to what an IAP may hold is a new version. */
export const IAP_SCHEMA_VERSION = 1;

const text = { type: 'string', maxLength: 8_192 } as const;
const short = { type: 'string', maxLength: L.textChars + 1 } as const;
const strings = (maxItems: number, item: object = short) =>
  ({ type: 'array', maxItems, items: item }) as const;
const unit = { type: 'number', minimum: 0, maximum: 1 } as const;
const window = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const object = (properties: Record<string, object>) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
  }) as const;
const nullable = (schema: object) => ({ anyOf: [{ type: 'null' }, schema] }) as const;
const count = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;

/**
 * The Intelligence Augmentation Packet of CRP-018 §2.3 as JSON Schema 2020-12, field for field; an
 * object component that was not triggered is null. Bounds are AIR's own ({@link AIR_LIMITS}).
 */
export const IAP_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://canonry.dev/schemas/air/iap.v${IAP_SCHEMA_VERSION}.json`,
  title: 'CRP-018 Intelligence Augmentation Packet',
  ...object({
    window_source: window,
    error_quarantine: strings(
      L.quarantine,
      object({ original_claim: short, correction: nullable(short), prohibition: text }),
    ),
    concept_freshness: strings(
      L.concepts,
      object({
        concept_label: short,
        freshness_score: unit,
        preferred_communities: strings(64, { type: 'string', maxLength: L.idChars }),
        exhausted_phrasings: strings(64),
      }),
    ),
    reasoning_scaffolds: strings(64, object({ claim_type: short, scaffold_prompt: text })),
    goal_residual: nullable(
      object({
        original_task: short,
        completed_sub_goals: strings(L.subGoals),
        remaining_sub_goals: strings(L.windowItems),
        re_anchor_injection: { type: 'string', maxLength: 65_536 },
      }),
    ),
    epistemic_map: nullable(
      object({
        verified_claims: strings(L.claims),
        unverified_claims: strings(L.claims),
        map_injection: { type: 'string', maxLength: 65_536 },
      }),
    ),
    vocabulary_directives: nullable(
      object({ forbidden_phrases: strings(L.blacklist), fresh_anchors: strings(L.windowItems) }),
    ),
  }),
} as const;

/** The IAP with the two §2.2 components §2.3 has no field for (`src/air/README.md`). */
export const AIR_PACKET_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://canonry.dev/schemas/air/packet.v${IAP_SCHEMA_VERSION}.json`,
  title: 'canonry AIR packet',
  ...object({
    iap: { $ref: IAP_SCHEMA.$id },
    targeted_retrieval: nullable(
      object({
        concepts: strings(L.windowItems),
        fact_ids: strings(L.windowItems, { type: 'string', maxLength: L.idChars }),
        injection: { type: 'string', maxLength: 65_536 },
      }),
    ),
    flow_bridge: nullable(object({ flow_score: unit, injection: text })),
  }),
} as const;

const claimEntry = object({
  claim: short,
  claim_type: { type: 'string', maxLength: L.claimTypeChars + 1 },
  fact_id: nullable({ type: 'string', maxLength: L.idChars + 1 }),
  window,
});

/** {@link AirState} as JSON Schema, for reading it back from the journal. */
export const AIR_STATE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://canonry.dev/schemas/air/state.v${AIR_STATE_VERSION}.json`,
  title: 'canonry AIR session state',
  ...object({
    version: { const: AIR_STATE_VERSION },
    window_count: count,
    loop_position: count,
    quarantine: strings(
      L.quarantine,
      object({
        original_claim: short,
        correction: nullable(short),
        fact_id: nullable({ type: 'string', maxLength: L.idChars + 1 }),
        kind: { enum: ['fabrication', 'distortion'] },
        window,
      }),
    ),
    concepts: strings(
      L.concepts,
      object({ label: short, freshness: unit, occurrences: count, last_window: window }),
    ),
    ngram_blacklist: strings(L.blacklist),
    verified_claims: strings(L.claims, claimEntry),
    unverified_claims: strings(L.claims, claimEntry),
    completed_sub_goals: strings(L.subGoals),
    used_fact_ids: strings(L.usedFacts, { type: 'string', maxLength: L.idChars + 1 }),
    repetition_sum: { type: 'number', minimum: 0 },
    session_iq: nullable({ type: 'number', minimum: 0, maximum: 100 }),
  }),
} as const;

let ajv: Ajv2020 | undefined;
const compiled = new Map<object, ValidateFunction>();

function check<T>(schema: { $id: string }, value: unknown, what: string): T {
  ajv ??= (() => {
    const a = new Ajv2020({ strict: true, allErrors: false, ownProperties: true, logger: false });
    a.addSchema(IAP_SCHEMA);
    return a;
  })();
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(value)) {
    const e = validate.errors![0]!;
    const params = e.params as { missingProperty?: string; additionalProperty?: string };
    const member = params.missingProperty ?? params.additionalProperty;
    const path = member === undefined ? e.instancePath : `${e.instancePath}/${member}`;
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${what}: ${path || '/'} ${e.message ?? 'is invalid'}`,
      {
        path,
      },
    );
  }
  return value as T;
}

/** Validates an IAP (e.g. read back from a journal entry); INVALID_ARGUMENT names the first problem. */
export function parseIap(value: unknown): Iap {
  return check<Iap>(IAP_SCHEMA, value, 'IAP');
}

/** Validates an AIR packet. */
export function parseAirPacket(value: unknown): AirPacket {
  return check<AirPacket>(AIR_PACKET_SCHEMA, value, 'AIR packet');
}

/** Validates an AIR state read back from the journal. */
export function parseAirState(value: unknown): AirState {
  return check<AirState>(AIR_STATE_SCHEMA, value, 'AIR state');
}
