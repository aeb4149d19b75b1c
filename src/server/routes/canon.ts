import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import { ARTIFACT_ROUTES } from './canon-artifacts.js';
import { BOARD_ROUTES } from './canon-board.js';
import { CLASSIFIER_ROUTES } from './canon-classifier.js';
import { MESSAGE_ROUTES } from './canon-messages.js';
import { OBJECT_ROUTES } from './canon-objects.js';
import { PROPOSAL_ROUTES } from './canon-proposals.js';
import { type CanonRoute, registerCanonRoutes } from './canon-route.js';
import { TOKEN_ROUTES } from './canon-tokens.js';
import { WORKING_SET_ROUTES } from './canon-working-set.js';

/** Every canon route, in the order the OpenAPI document lists them. */
export const CANON_ROUTES: readonly CanonRoute[] = [
  ...MESSAGE_ROUTES,
  ...CLASSIFIER_ROUTES,
  ...PROPOSAL_ROUTES,
  ...OBJECT_ROUTES,
  ...BOARD_ROUTES,
  ...ARTIFACT_ROUTES,
  ...WORKING_SET_ROUTES,
  ...TOKEN_ROUTES,
];

/** The LCSM surface: `/v1/projects/:project/{messages,unclassified,classifier,proposals,objects,board,artifacts,working-set,tokens}`. */
export function canonRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  registerCanonRoutes(app, runtime, CANON_ROUTES);
}
