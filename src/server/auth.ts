import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CanonryRuntime } from '../app/index.js';
import type { AuthPrincipal, TokenRole } from '../auth/index.js';
import type { Principal } from '../canon/index.js';
import { CanonryError } from '../core/index.js';
import { authorizeToken, bearerToken, canonPrincipal } from '../operations/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated principal of a project route; null on public routes. */
    principal: AuthPrincipal | null;
  }
  interface FastifyContextConfig {
    /** The least role a token needs for this project route. */
    minRole?: TokenRole;
  }
}

/** Every route under this prefix needs a bearer token of the project it names. */
export const PROJECT_PREFIX = '/v1/projects/:project';

/** True for the routes the auth hook guards. */
export function isProjectRoute(url: string | undefined): boolean {
  return url === PROJECT_PREFIX || (url?.startsWith(`${PROJECT_PREFIX}/`) ?? false);
}

/**
 * The least role for a project route: its `config.minRole`, else viewer for reads and owner for
 * anything else (a route someone forgets to label fails closed).
 */
export function minRoleOf(method: string, config: { minRole?: TokenRole } | undefined): TokenRole {
  if (config?.minRole) return config.minRole;
  return method === 'GET' || method === 'HEAD' ? 'viewer' : 'owner';
}

/**
 * Guards every route under `/v1/projects/:project/` — canon's and the journal's alike, since the hook
 * is global and keyed on the route's URL pattern. Runs on `onRequest`, before the body is parsed, so
 * an unauthenticated or cross-project request learns nothing about its body and writes nothing. The
 * principal comes only from the token and is put on the request.
 */
export function useProjectAuth(app: FastifyInstance, runtime: CanonryRuntime): void {
  app.decorateRequest('principal', null);
  // A callback hook: the public routes (`POST /v1/validate` above all) pay no promise for it.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isProjectRoute(request.routeOptions.url)) return done();
    // A project's answers are for its token's principal: no cache keeps them, nothing sniffs them.
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    authenticate(runtime, request, reply).then(() => done(), done);
  });
}

async function authenticate(
  runtime: CanonryRuntime,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const project = (request.params as { project?: string } | undefined)?.project;
  try {
    request.principal = await authorizeToken(
      runtime.tokens,
      bearerToken(request.headers.authorization),
      project ?? '',
      minRoleOf(request.method, request.routeOptions.config),
    );
  } catch (err) {
    if (err instanceof CanonryError && err.code === 'UNAUTHENTICATED') {
      reply.header('www-authenticate', 'Bearer realm="canonry"');
    }
    throw err;
  }
}

/** The canon principal of an authenticated request (a bug if the hook did not run). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new CanonryError('UNAUTHENTICATED');
  return canonPrincipal(request.principal);
}
