import { CanonryError } from '../core/index.js';
import { ARTIFACT_OPERATIONS } from './canon-artifacts.js';
import { BOARD_OPERATIONS } from './canon-board.js';
import { CLASSIFIER_OPERATIONS } from './canon-classifier.js';
import { MESSAGE_OPERATIONS } from './canon-messages.js';
import { OBJECT_OPERATIONS } from './canon-objects.js';
import { PROPOSAL_OPERATIONS } from './canon-proposals.js';
import { TOKEN_OPERATIONS } from './canon-tokens.js';
import { VERIFY_OPERATIONS } from './canon-verify.js';
import { WORKING_SET_OPERATIONS } from './canon-working-set.js';
import { EVOLUTION_OPERATIONS } from './evolution.js';
import { ADMISSION_OPERATIONS } from './evolution-admission.js';
import { PROMOTION_OPERATIONS } from './evolution-promotion.js';
import type { Operation } from './operation.js';
import { RELAY_OPERATIONS } from './relay.js';

/** Every project operation, in the order the OpenAPI document lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...MESSAGE_OPERATIONS,
  ...CLASSIFIER_OPERATIONS,
  ...PROPOSAL_OPERATIONS,
  ...OBJECT_OPERATIONS,
  ...BOARD_OPERATIONS,
  ...ARTIFACT_OPERATIONS,
  ...WORKING_SET_OPERATIONS,
  ...VERIFY_OPERATIONS,
  ...RELAY_OPERATIONS,
  ...EVOLUTION_OPERATIONS,
  ...PROMOTION_OPERATIONS,
  ...ADMISSION_OPERATIONS,
  ...TOKEN_OPERATIONS,
];

const BY_NAME = new Map(OPERATIONS.map((op) => [op.operationId, op]));

/** The operation named `name` (its operationId); INVALID_ARGUMENT for an unknown name. */
export function operationNamed(name: string): Operation {
  const op = BY_NAME.get(name);
  if (!op) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `no operation ${JSON.stringify(name.slice(0, 64))}`,
      {
        field: 'operation',
      },
    );
  }
  return op;
}
