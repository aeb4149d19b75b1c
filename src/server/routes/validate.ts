import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';

/** Path of the TCP/AP evaluation endpoint; its errors use the §6 envelope. */
export const VALIDATE_PATH = '/v1/validate';

/** `POST /v1/validate` exactly as TCP/AP §6. */
export function validateRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  app.post(VALIDATE_PATH, async (request, reply) => {
    const evaluation = runtime.kernel.validate(request.body);
    return reply.code(evaluation.httpStatus).send(evaluation.envelope);
  });
}
