import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { CanonryError, type ErrorCode } from '../core/index.js';
import { errorBody } from './errors.js';
import { freshRequestId, REQUEST_ID_HEADER } from './request-id.js';

/** What Node's HTTP parser or server refused, before any request reached a route, as canonry's code. */
function codeOf(err: { readonly code?: string }): ErrorCode {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  if (err.code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  return 'MALFORMED_REQUEST';
}

/**
 * Answers what the HTTP server refuses before a request exists — a request that did not arrive in
 * time (headers or body), headers past Node's bound, bytes that are not HTTP — with canonry's error
 * envelope and a request id, as every other refusal, instead of Fastify's own body; then closes the
 * connection (its stream can no longer be trusted to be in step). A reset connection is let go.
 */
export function clientErrorHandler(
  this: unknown,
  err: Error & { readonly code?: string },
  socket: Socket,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const typed = new CanonryError(codeOf(err));
  // Fastify calls it as the instance: its logger, at debug (a scanner's noise is not news).
  (this as Partial<FastifyInstance> | undefined)?.log?.debug(
    { code: typed.code, cause: err.code },
    'client error before any route',
  );
  if (socket.writable) {
    const body = JSON.stringify(errorBody(typed));
    socket.write(
      `HTTP/1.1 ${typed.status} ${STATUS_CODES[typed.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${freshRequestId()}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
