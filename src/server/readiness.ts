import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../app/index.js';
import { CanonryError } from '../core/index.js';
import { edgeError, errorBody } from './errors.js';

/** How long `/readyz` waits for the store before it answers 503. */
export const READY_TIMEOUT_MS = 2_000;

/** Resolves when the store answers a trivial query; rejects (typed) when it fails or is too slow. */
async function probeStore(runtime: CanonryRuntime): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CanonryError('STORE_UNAVAILABLE', 'the store did not answer in time')),
      READY_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([runtime.store.all('SELECT 1 AS ready'), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /readyz`: 200 when the store answers a query, 503 `STORE_UNAVAILABLE` when it does not. A load
 * balancer takes a server out of rotation on it; `/healthz` stays cheap (no query) for liveness.
 * With evolution on, it says whether this process's coordinator leads or stands by, and who holds
 * the database's coordinator lease.
 */
export function readinessRoute(app: FastifyInstance, runtime: CanonryRuntime): void {
  app.get('/readyz', async (request, reply) => {
    try {
      await probeStore(runtime);
    } catch (err) {
      const typed = edgeError(err);
      const unavailable =
        typed.code === 'STORE_UNAVAILABLE' || typed.code === 'STORE_BUSY'
          ? typed
          : new CanonryError('STORE_UNAVAILABLE', 'the store did not answer a query');
      request.log.warn({ err }, 'not ready: the store did not answer');
      return reply.code(503).send(errorBody(unavailable));
    }
    // Which process's evolution coordinator dispatches (one per database holds the lease).
    const role = runtime.evolution ? await runtime.evolution.role().catch(() => null) : null;
    return reply.code(200).send({
      ok: true,
      store: runtime.store.description,
      ...(role === null
        ? {}
        : {
            evolution: {
              role: role.role,
              holder: role.holder,
              lease_holder: role.lease?.holder ?? null,
            },
          }),
    });
  });
}
