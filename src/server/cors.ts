import type { FastifyInstance, FastifyReply } from 'fastify';
import { CanonryError } from '../core/index.js';
import { OPERATIONS } from '../operations/index.js';
import { errorBody } from './errors.js';
import { REQUEST_ID_HEADER } from './request-id.js';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
// last-event-id: a browser resuming the event feed; the mcp-* headers: an MCP client at /mcp.
const ALLOW_HEADERS = `authorization, content-type, ${REQUEST_ID_HEADER}, crp-safety-policy, last-event-id, mcp-protocol-version, mcp-session-id`;
/** What a browser may read: the request id, back-off hints, and the headers operations set (CRP-Relay-*). */
const EXPOSE_HEADERS = [
  REQUEST_ID_HEADER,
  'retry-after',
  'www-authenticate',
  ...new Set(OPERATIONS.flatMap((op) => Object.keys(op.responseHeaders?.documented ?? {}))),
].join(', ');
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

function allowOrigin(reply: FastifyReply, origin: string, any: boolean): void {
  reply.header('access-control-allow-origin', any ? '*' : origin);
  if (!any) reply.header('vary', 'origin');
}

/**
 * CORS for the origins in `config.corsOrigins` (`*`: any), off when there are none. A preflight from
 * an allowed origin is answered 204 before auth (it carries no token); one from any other origin is
 * refused 403 FORBIDDEN. Plain requests from other origins are served without CORS headers, so the
 * browser withholds the answer. Credentials are never allowed: canonry's auth is a bearer header.
 */
export function useCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string') return;
    const ok = any || allowed.has(origin);
    const preflight =
      request.method === 'OPTIONS' &&
      request.headers['access-control-request-method'] !== undefined;
    if (!preflight) {
      if (ok) {
        allowOrigin(reply, origin, any);
        reply.header('access-control-expose-headers', EXPOSE_HEADERS);
      }
      return;
    }
    if (!ok) {
      const refused = new CanonryError(
        'FORBIDDEN',
        'this origin may not call the API from a browser (CANONRY_CORS_ORIGINS)',
        { origin: origin.slice(0, 200) },
      );
      return reply.code(403).send(errorBody(refused));
    }
    allowOrigin(reply, origin, any);
    reply.header('access-control-allow-methods', ALLOW_METHODS);
    reply.header('access-control-allow-headers', ALLOW_HEADERS);
    reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
    return reply.code(204).send();
  });
}
