import { defineEntryKind, type EntrySummary } from '../journal/index.js';
import { PROMOTION_STEP_SCHEMA } from './promotion-schema.js';
import type { PromotionStep } from './promotion-types.js';

/** An `evolution.promotion` entry's body: one step of one promotion. */
export interface PromotionEntryBody {
  readonly promotion_id: string;
  readonly step: PromotionStep;
}

/**
 * What the live feed shows of a step: the promotion, the step and its outcome (passed, the canary
 * arm and its numbers, automatic or not) — never the artifact, the reasons or the signature.
 */
function summary({ promotion_id, step }: PromotionEntryBody): EntrySummary {
  const base = { promotion_id, step: step.step };
  switch (step.step) {
    case 'propose':
      return { ...base, artifact_kind: step.candidate.artifact_kind };
    case 'validate':
      return { ...base, passed: step.passed, replayed: step.replayed };
    case 'check':
      return { ...base, passed: step.passed };
    case 'publish':
      return { ...base, address: step.publication.address };
    case 'observe':
      return { ...base, arm: step.arm, value: step.value, samples: step.samples };
    case 'promote':
    case 'roll_back':
      return { ...base, automatic: step.automatic };
    default:
      return base;
  }
}

/** Every step of the promotion pipeline; a rollback is a step appended, never an entry removed. */
export const PROMOTION_ENTRY = defineEntryKind<PromotionEntryBody>({
  kind: 'evolution.promotion',
  version: 1,
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['promotion_id', 'step'],
    properties: {
      promotion_id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' },
      step: PROMOTION_STEP_SCHEMA,
    },
  },
  summary,
});
