import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';

/** `GET /v1/trust`: the root and issuer certificates and the revocation list, never a private key. */
export function trustRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  app.get('/v1/trust', async () => runtime.keyring.trustBundle());
}
