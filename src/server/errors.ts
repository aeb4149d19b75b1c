import type { FastifyError } from 'fastify';
import { CanonryError, type ErrorCode, toCanonryError } from '../core/index.js';

/** Fastify's own failure codes and the canonry code each becomes at the edge. */
const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_BODY',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_VALIDATION: 'INVALID_BODY',
  // Router failures: a malformed percent-escape, or a path parameter over 100 characters.
  FST_ERR_BAD_URL: 'INVALID_ARGUMENT',
  FST_ERR_MAX_PARAM_LENGTH: 'INVALID_ARGUMENT',
};

/**
 * Turns anything thrown inside a request into one typed error, once: CanonryErrors pass through,
 * Fastify's transport errors get their canonry code, anything else is INTERNAL (a bug).
 */
export function edgeError(err: unknown): CanonryError {
  if (err instanceof CanonryError) return err;
  const fastify = err as Partial<FastifyError>;
  const mapped = typeof fastify.code === 'string' ? FASTIFY_CODES[fastify.code] : undefined;
  if (mapped) return new CanonryError(mapped);
  if (fastify.validation) return new CanonryError('INVALID_BODY', fastify.message);
  if (
    typeof fastify.statusCode === 'number' &&
    fastify.statusCode >= 400 &&
    fastify.statusCode < 500
  ) {
    return new CanonryError(fastify.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_BODY');
  }
  return toCanonryError(err);
}

/** The body of every error response outside `/v1/validate`. */
export function errorBody(err: CanonryError): {
  error: { code: ErrorCode; message: string; details?: unknown };
} {
  const publicDetails = err.code === 'INTERNAL' ? undefined : err.details;
  return {
    error: {
      code: err.code,
      message: err.code === 'INTERNAL' ? 'internal error' : err.message,
      ...(publicDetails ? { details: publicDetails } : {}),
    },
  };
}
