import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes the raw response over from Fastify (a stream, or a face that writes its own answers), with
 * the headers the hooks already set on the reply — the request id, CORS, nosniff, no-store — which
 * Fastify would otherwise only have written with a reply of its own.
 */
export function hijack(reply: FastifyReply): ServerResponse {
  const raw = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) raw.setHeader(name, value as string | number | readonly string[]);
  }
  reply.hijack();
  return raw;
}
