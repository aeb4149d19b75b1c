import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import { OPERATIONS, type Operation, runOperation } from '../../operations/index.js';
import { principalOf } from '../auth.js';

/**
 * One route per operation, under `/v1/projects/:project`: the auth hook reads its least role from
 * `config.minRole` before the body is parsed, and `runOperation` does the rest as every face does.
 */
export function operationRoutes(
  app: FastifyInstance,
  runtime: CanonryRuntime,
  operations: readonly Operation[] = OPERATIONS,
): void {
  for (const op of operations) {
    app.route({
      method: op.method,
      url: op.url,
      config: { minRole: op.minRole },
      handler: async (request, reply) => {
        const result = await runOperation(runtime, op, principalOf(request), {
          params: request.params as Record<string, string>,
          query: request.query as Record<string, string>,
          body: request.body,
          safetyPolicy: safetyPolicyOf(request.headers['crp-safety-policy']),
        });
        if (op.responseHeaders) {
          for (const [name, value] of Object.entries(op.responseHeaders.of(result)))
            reply.header(name, value);
        }
        return reply.code(op.status).send(result);
      },
    });
  }
}

/** The `CRP-Safety-Policy` header as one string (repeated headers join as the grammar's `; `). */
function safetyPolicyOf(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join('; ') : value;
}
