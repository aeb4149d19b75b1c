import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header a request id arrives in and leaves in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An incoming id is kept only when it is short and plain: it lands in every log line of the request. */
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A random UUID per process whose last group (48 bits) becomes a counter: see {@link requestId}. */
const PROCESS_PREFIX = randomUUID().slice(0, 24);
let issued = 0;

/**
 * The id of a request: the caller's `x-request-id` when it is sane (a proxy's or a client's id, so
 * their logs and ours line up), a fresh id shaped like a UUID otherwise — a random prefix drawn once
 * per process and a counter, so ids stay unique across processes without a random draw per request.
 * Fastify puts it in every line the request's logger writes (`reqId`).
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  if (typeof given === 'string' && SANE_ID.test(given)) return given;
  return freshRequestId();
}

/** A new id, for an answer given before any request was read (`client-error.ts`). */
export function freshRequestId(): string {
  issued = issued >= 0xffff_ffff_ffff ? 0 : issued + 1;
  return PROCESS_PREFIX + issued.toString(16).padStart(12, '0');
}

/** Echoes the request id on every response, errors and 404s included. */
export function useRequestId(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
