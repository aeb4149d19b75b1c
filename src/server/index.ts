export { BODY_LIMIT, buildServer, listen, type ServerOptions } from './app.js';
export { isProjectRoute, PROJECT_PREFIX, principalOf } from './auth.js';
export {
  authorizeToken,
  bearerToken,
  canonPrincipal,
  refuseReservedProject,
  roleAtLeast,
} from './authorize.js';
export type { Board, ObjectView, ProposalView } from './canon-views.js';
export { tokenIdArg } from './input.js';
export { createLogger, loggedPath } from './logger.js';
export { OPENAPI_PATH, openApiDocument } from './openapi.js';
export { type RegisteredRoute, registeredRoutes } from './route-table.js';
export { CANON_ROUTES } from './routes/canon.js';
export type { ClassifierView } from './routes/canon-classifier.js';
export { IN_PROCESS_MAX_BYTES, VALIDATE_PATH, validatePoolOf } from './routes/validate.js';
export { ValidatePool, type ValidatePoolOptions } from './validate-pool/pool.js';
