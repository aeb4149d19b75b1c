import type { FastifyInstance } from 'fastify';
import { CanonryError } from '../core/index.js';

/** What `Retry-After` tells a client that reached a server on its way down. */
const RETRY_AFTER_S = 5;

/**
 * A request that reaches the server after `close()` began (a keep-alive connection, a pipelined
 * request) is answered `SHUTTING_DOWN` in canonry's envelope, with its request id and
 * `Retry-After`, instead of Fastify's own 503 body (the server is built with
 * `return503OnClosing: false`). Requests already being handled finish as they would have.
 * Registered after the request id, so the answer carries it.
 */
export function answerWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!closing) return done();
    done(
      new CanonryError(
        'SHUTTING_DOWN',
        'canonry is shutting down: retry on another server, or once this one is back',
        { retry_after_s: RETRY_AFTER_S },
      ),
    );
  });
}
