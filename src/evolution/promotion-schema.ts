import { CANARY_EVIDENCE, PROMOTION_ARTIFACT_KINDS } from './promotion-types.js';

const HASH = { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' };
const ID = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' };
const closed = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

/** How many projects a canary may name and events a validation may replay. */
export const PROMOTION_LIMITS = { projects: 64, replayEvents: 256, reasons: 32 } as const;

/** A promotion candidate (`PromotionCandidate`), JSON Schema 2020-12. */
export const PROMOTION_CANDIDATE_SCHEMA = closed({
  promotion_id: ID,
  artifact_kind: { enum: [...PROMOTION_ARTIFACT_KINDS] },
  artifact: { type: 'object' },
  baseline: { anyOf: [HASH, { type: 'null' }] },
  canary: closed({
    share: { type: 'number', minimum: 0, maximum: 1 },
    projects: { type: 'array', maxItems: PROMOTION_LIMITS.projects, items: ID },
  }),
  // The two evidence bounds are optional here because promotions proposed before them were
  // journaled without; the runner fills them in before it journals a proposal.
  metric: closed(
    {
      name: { type: 'string', minLength: 1, maxLength: 64 },
      margin: { type: 'number', minimum: 0, maximum: 1 },
      min_samples: { type: 'integer', minimum: 1, maximum: 1_000_000 },
      min_observations: {
        type: 'integer',
        minimum: CANARY_EVIDENCE.minObservations,
        maximum: CANARY_EVIDENCE.maxObservations,
        description: `observations each arm needs before the canary decides (default ${CANARY_EVIDENCE.minObservations}, at least that)`,
      },
      max_observation_samples: {
        type: 'integer',
        minimum: 1,
        maximum: 1_000_000,
        description: 'most samples one observation may claim (default min_samples)',
      },
    },
    ['min_observations', 'max_observation_samples'],
  ),
  replay_events: {
    type: 'array',
    maxItems: PROMOTION_LIMITS.replayEvents,
    items: { type: 'string', minLength: 1, maxLength: 128 },
  },
});

const TEXT = { type: 'string', maxLength: 2_000 };
const PUBLICATION = closed({
  type: { const: 'canonry/promotion-publication' },
  v: { const: 1 },
  promotion_id: ID,
  artifact_kind: { enum: [...PROMOTION_ARTIFACT_KINDS] },
  address: HASH,
  baseline: { anyOf: [HASH, { type: 'null' }] },
  issuer: closed({ fingerprint: HASH, certificate: { type: 'string' } }),
  signature: closed({ alg: { const: 'Ed25519' }, value: { type: 'string' } }),
});

/** One step of a promotion (`PromotionStep`). */
export const PROMOTION_STEP_SCHEMA = {
  oneOf: [
    closed({ step: { const: 'propose' }, candidate: PROMOTION_CANDIDATE_SCHEMA }),
    closed({
      step: { const: 'validate' },
      passed: { type: 'boolean' },
      replayed: { type: 'integer', minimum: 0 },
      failures: {
        type: 'array',
        maxItems: PROMOTION_LIMITS.replayEvents,
        items: closed({ event_id: { type: 'string' }, reason: TEXT }),
      },
    }),
    closed({
      step: { const: 'check' },
      passed: { type: 'boolean' },
      reasons: { type: 'array', maxItems: PROMOTION_LIMITS.reasons, items: TEXT },
    }),
    closed({ step: { const: 'publish' }, publication: PUBLICATION }),
    closed({ step: { const: 'canary' } }),
    closed({
      step: { const: 'observe' },
      arm: { enum: ['canary', 'baseline'] },
      value: { type: 'number', minimum: 0, maximum: 1 },
      samples: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    }),
    closed({ step: { const: 'promote' }, automatic: { type: 'boolean' }, reason: TEXT }),
    closed({ step: { const: 'roll_back' }, automatic: { type: 'boolean' }, reason: TEXT }),
  ],
} as const;
