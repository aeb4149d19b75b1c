import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';

/** Register an agentic protocol (`POST /v1/protocols` → its hash) and read one back by hash. */
export function protocolRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  const { registry } = runtime.kernel;
  app.post('/v1/protocols', async (request, reply) => {
    const { protocol, created } = registry.register(request.body);
    return reply.code(created ? 201 : 200).send({
      hash: protocol.hash,
      slug: protocol.protocol.slug,
      version: protocol.protocol.version,
      labels: protocol.protocol.labels,
    });
  });
  app.get<{ Params: { hash: string } }>('/v1/protocols/:hash', async (request) => {
    const protocol = registry.get(request.params.hash);
    return { hash: protocol.hash, protocol: protocol.protocol };
  });
}
