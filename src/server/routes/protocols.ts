import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import { CanonryError } from '../../core/index.js';
import { authorizeToken, bearerToken } from '../../operations/index.js';

/** The least role a token needs to register a protocol. */
export const REGISTER_ROLE = 'editor';

/**
 * `POST /v1/protocols` registers an agentic protocol (→ its hash) for the token's project: a write
 * to the shared registry, so it needs an editor's token (or an owner's), is bounded in size and in
 * count per project, and is journaled in that project. `GET /v1/protocols/:hash` stays public:
 * protocols are content-addressed and verifiers fetch them by the hash an event names.
 */
export function protocolRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  const { registry } = runtime.kernel;
  app.post('/v1/protocols', {
    // Authenticated before the body is parsed: an anonymous request learns nothing and costs nothing.
    onRequest: async (request, reply) => {
      try {
        request.principal = await authorizeToken(
          runtime.tokens,
          bearerToken(request.headers.authorization),
          undefined,
          REGISTER_ROLE,
        );
      } catch (err) {
        if (err instanceof CanonryError && err.code === 'UNAUTHENTICATED') {
          reply.header('www-authenticate', 'Bearer realm="canonry"');
        }
        throw err;
      }
    },
    handler: async (request, reply) => {
      const principal = request.principal!;
      const { protocol, created } = await registry.register(request.body, {
        project: principal.project,
        principal: principal.id,
        role: principal.role,
      });
      return reply.code(created ? 201 : 200).send({
        hash: protocol.hash,
        slug: protocol.protocol.slug,
        version: protocol.protocol.version,
        labels: protocol.protocol.labels,
      });
    },
  });
  app.get<{ Params: { hash: string } }>('/v1/protocols/:hash', async (request) => {
    const protocol = await registry.get(request.params.hash);
    return { hash: protocol.hash, protocol: protocol.protocol };
  });
}
