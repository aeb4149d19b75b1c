export { BODY_LIMIT, buildServer, listen, type ServerOptions } from './app.js';
export { isProjectRoute, PROJECT_PREFIX, principalOf } from './auth.js';
export { createLogger, loggedPath } from './logger.js';
export type { Mount } from './mount.js';
export { type MountDoc, OPENAPI_PATH, openApiDocument } from './openapi.js';
export { type RegisteredRoute, registeredRoutes } from './route-table.js';
export { IN_PROCESS_MAX_BYTES, VALIDATE_PATH, validatePoolOf } from './routes/validate.js';
export { ValidatePool, type ValidatePoolOptions } from './validate-pool/pool.js';
