import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import { CanonryError } from '../../core/index.js';
import type { Evaluation } from '../../kernel/index.js';
import { parseJsonBytes } from '../json-body.js';
import { ValidatePool } from '../validate-pool/pool.js';

/** Path of the TCP/AP evaluation endpoint; its errors use the §6 envelope. */
export const VALIDATE_PATH = '/v1/validate';

/**
 * Bodies up to this size (16 KiB) whose protocol is a hash this process has compiled already are
 * decided in the server's thread: no compile, a parse of a few µs to ~0.3 ms, and an evaluation the
 * step budgets bound (the worst registered shapes: `bench/kernel/worst-case.js`). The hop to a
 * thread costs more than it spares there: measured (dist, 20,000 refund requests by hash), +14 µs
 * of the server thread's CPU and +40 µs of the process's a request, 25 % and 80 % of the whole
 * in-process evaluation, signature included. Everything else — inline protocols (which compile),
 * larger bodies, hashes not compiled here — is decided on the pool.
 */
export const IN_PROCESS_MAX_BYTES = 16 * 1024;

/** What Fastify sends with a serialised object; a pre-serialised envelope goes with the same. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const pools = new WeakMap<FastifyInstance, ValidatePool>();

/** The evaluation threads of a server built by `buildServer` (none when `validateWorkers` is 0). */
export function validatePoolOf(app: FastifyInstance): ValidatePool | undefined {
  return pools.get(app);
}

/**
 * `POST /v1/validate` exactly as TCP/AP §6: usable without a token, so it is rate limited per
 * client address (`config.validateRateLimit`; 429 RATE_LIMITED with `Retry-After` past it). Every
 * evaluation it causes is bounded by the kernel's step budgets, and runs off the event loop on the
 * evaluation threads (`config.validateWorkers`) unless it is small and its protocol compiled.
 */
export function validateRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  const limit = runtime.config.validateRateLimit;
  const kernel = runtime.kernel;
  const pool =
    runtime.config.validateWorkers > 0
      ? new ValidatePool({
          size: runtime.config.validateWorkers,
          source: (hash) => kernel.registry.source(hash),
          onThreadError: (err) => app.log.error({ err }, 'an evaluation thread failed'),
        })
      : undefined;
  if (pool) {
    pools.set(app, pool);
    app.addHook('onClose', () => pool.close());
  }
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

  const evaluate = async (bytes: Buffer): Promise<Evaluation> => {
    if (pool === undefined) return kernel.validate(parseJsonBytes(bytes));
    if (bytes.byteLength <= IN_PROCESS_MAX_BYTES) {
      const body = parseJsonBytes(bytes);
      const ref = (body as { agentic_protocol?: unknown } | null)?.agentic_protocol;
      if (kernel.registry.holds(ref)) return kernel.validate(body);
    }
    return kernel.attestAsync(await pool.decide(bytes));
  };

  // Registered after the limiter has loaded, so its route hook sees this route's limit.
  app.register(async (scope) => {
    // The body's bytes, bounded by the server's body limit; parsed by `evaluate` (or a thread).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(VALIDATE_PATH, {
      config: { rateLimit: rateLimitOptions },
      handler: async (request, reply) => {
        // No body, or one without a content type, reaches here with none parsed.
        if (!Buffer.isBuffer(request.body)) {
          throw new CanonryError('MALFORMED_BODY', 'the request has no JSON body');
        }
        const evaluation = await evaluate(request.body);
        reply.code(evaluation.httpStatus);
        // A conformant envelope comes as text already (the certificate is not serialised again).
        if (evaluation.json === undefined) return reply.send(evaluation.envelope);
        return reply.type(JSON_CONTENT_TYPE).send(evaluation.json);
      },
    });
  });
}
