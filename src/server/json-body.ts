import type { FastifyInstance } from 'fastify';
import { DEFAULT_MAX_JSON_DEPTH, parseJsonText } from '../core/index.js';

/**
 * Replaces Fastify's body parsers with canonry's JSON parser with canonry's: the nesting depth is bounded before parsing, and
 * failures become typed errors (MALFORMED_BODY, NESTING_TOO_DEEP) instead of generic 400s.
 */
export function useJsonBodies(app: FastifyInstance, maxDepth = DEFAULT_MAX_JSON_DEPTH): void {
  // Fastify also parses text/plain by default; canonry's routes take JSON only, anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonText(body as string, maxDepth));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
}
