import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_JSON_KEYS,
  DEFAULT_MAX_JSON_VALUES,
  parseJsonText,
} from '../core/index.js';

/**
 * Replaces Fastify's body parsers with canonry's JSON parser: the nesting depth, the number of values
 * and of distinct member names are bounded before parsing, and failures become typed errors (MALFORMED_BODY,
 * NESTING_TOO_DEEP, PAYLOAD_TOO_LARGE) instead of generic 400s.
 */
export function useJsonBodies(
  app: FastifyInstance,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
  limits = { values: DEFAULT_MAX_JSON_VALUES, keys: DEFAULT_MAX_JSON_KEYS },
): void {
  // Fastify also parses text/plain by default; canonry's routes take JSON only, anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // No route answers it: the body is nobody's input, and the answer is 404 or 405.
    if (request.is404) {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseJsonText(body as string, maxDepth, limits));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}

/**
 * Parses a request body's bytes as the JSON parser above parses its text (UTF-8, the same bounds and
 * typed errors). `POST /v1/validate` reads bytes, so the server's thread and an evaluation thread
 * run this same function on them.
 */
export function parseJsonBytes(
  bytes: Uint8Array,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
  limits = { values: DEFAULT_MAX_JSON_VALUES, keys: DEFAULT_MAX_JSON_KEYS },
): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return parseJsonText(text, maxDepth, limits);
}
