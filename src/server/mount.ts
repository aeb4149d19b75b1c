import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../app/index.js';
import type { AuthPrincipal } from '../auth/index.js';
import { CanonryError } from '../core/index.js';
import { authorizeToken, bearerToken } from '../operations/index.js';
import { hijack } from './hijack.js';
import type { MountDoc } from './openapi.js';

/**
 * A route another face serves on this server, at its own URL and over the raw Node request (MCP's
 * streamable HTTP transport writes its own responses). The server authenticates the bearer token
 * first — any role of any project; the principal is the token's — and documents the route.
 */
export interface Mount extends MountDoc {
  handle(
    principal: AuthPrincipal,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The principal of a mounted route's bearer token. */
    mountPrincipal: AuthPrincipal | null;
  }
}

/** Registers each mount, its token checked on `onRequest` (before the body is read). */
export function mountRoutes(
  app: FastifyInstance,
  runtime: CanonryRuntime,
  mounts: readonly Mount[],
): void {
  if (mounts.length === 0) return;
  app.decorateRequest('mountPrincipal', null);
  for (const mount of mounts) {
    app.route({
      method: [...mount.methods],
      url: mount.url,
      onRequest: async (request, reply) => {
        // A mount answers for its token's principal (MCP: a project's canon), as a project route
        // does: no cache keeps it, nothing sniffs it. Set before the token is checked, so a refusal
        // carries them too; the hijacked response takes them over.
        reply.header('cache-control', 'no-store');
        reply.header('x-content-type-options', 'nosniff');
        try {
          request.mountPrincipal = await authorizeToken(
            runtime.tokens,
            bearerToken(request.headers.authorization),
            undefined,
            'viewer',
          );
        } catch (err) {
          if (err instanceof CanonryError && err.code === 'UNAUTHENTICATED') {
            reply.header('www-authenticate', 'Bearer realm="canonry"');
          }
          throw err;
        }
      },
      handler: async (request, reply) => {
        const principal = request.mountPrincipal;
        if (!principal) throw new CanonryError('UNAUTHENTICATED');
        await mount.handle(principal, request.raw, hijack(reply), request.body);
      },
    });
  }
}
