import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header a request id arrives in and leaves in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming id is kept only when it is short and plain: it lands in every log line of the request. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the caller's `x-request-id` when it is sane (a proxy's or a client's id, so
 * their logs and ours line up), a fresh UUID otherwise. Fastify puts it in every line the request's
 * logger writes (`reqId`).
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

/** Echoes the request id on every response, errors and 404s included. */
export function useRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
