import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import { CanonryError } from '../../core/index.js';

/** Path of the TCP/AP evaluation endpoint; its errors use the §6 envelope. */
export const VALIDATE_PATH = '/v1/validate';

/**
 * `POST /v1/validate` exactly as TCP/AP §6: usable without a token, so it is rate limited per
 * client address (`config.validateRateLimit`; 429 RATE_LIMITED with `Retry-After` past it). Every
 * evaluation it causes is bounded by the kernel's step budgets.
 */
export function validateRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  const limit = runtime.config.validateRateLimit;
  app.register(rateLimit, { global: false });
  const rateLimitOptions: RateLimitOptions | false = limit
    ? {
        max: limit.max,
        timeWindow: limit.windowMs,
        errorResponseBuilder: (_request, context) =>
          new CanonryError(
            'RATE_LIMITED',
            `more than ${context.max} requests in ${context.after}; retry later`,
            { retry_after_ms: context.ttl },
          ),
      }
    : false;
  // Registered after the limiter has loaded, so its route hook sees this route's limit.
  app.register(async (scope) => {
    scope.post(VALIDATE_PATH, {
      config: { rateLimit: rateLimitOptions },
      handler: async (request, reply) => {
        const evaluation = await runtime.kernel.validate(request.body);
        return reply.code(evaluation.httpStatus).send(evaluation.envelope);
      },
    });
  });
}
