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

/** canonry's codes for a body that could not be read as the route's input. */
const BODY_CODES: ReadonlySet<string> = new Set([
  'MALFORMED_BODY',
  'NESTING_TOO_DEEP',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
]);

/**
 * Whether a failure is about the request's body or its type (parsing, size, media type, a missing
 * content type): what Fastify meets before a handler runs, the not-found handler included.
 */
export function isBodyError(err: unknown): boolean {
  if (err instanceof CanonryError) return BODY_CODES.has(err.code);
  const code = (err as Partial<FastifyError>).code;
  return (
    typeof code === 'string' &&
    (code.startsWith('FST_ERR_CTP_') || code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE')
  );
}

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

/** The model-path failures logged at warn: outages and rejected classifier output. */
const MODEL_PATH_CODES: ReadonlySet<ErrorCode> = new Set([
  'MODEL_UNAVAILABLE',
  'MODEL_BUSY',
  'MODEL_OUTPUT_INVALID',
  'CLASSIFIER_FAILED',
]);

/**
 * The store's refusals for now and when to try again, in seconds: a lock held past its bound is
 * often released soon (another writer's transaction); a database out of reach takes longer.
 */
const STORE_RETRY_AFTER_S: Partial<Record<ErrorCode, number>> = {
  STORE_BUSY: 1,
  STORE_UNAVAILABLE: 5,
};

/**
 * Whole seconds to send as `Retry-After`: the error's own retry hint, else the store's for its
 * refusals for now ({@link STORE_RETRY_AFTER_S}).
 */
export function retryAfterOf(err: CanonryError): number | undefined {
  const value = err.details?.retry_after_s;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  return STORE_RETRY_AFTER_S[err.code];
}

/**
 * What the log says about a model-path failure, or null for other errors: the code, the message id,
 * the model route, the upstream status, the retry hint and the reason codes — never the error's
 * text, which may quote the model's output, and so never the key, the prompt or the message text.
 */
export function modelFailureLog(err: CanonryError): Record<string, unknown> | null {
  if (!MODEL_PATH_CODES.has(err.code)) return null;
  const d = err.details ?? {};
  const fields: Record<string, unknown> = { code: err.code };
  for (const name of ['message_id', 'route', 'classifier', 'upstream_status', 'retry_after_s']) {
    const value = d[name];
    if (typeof value === 'string' || typeof value === 'number') fields[name] = value;
  }
  if (Array.isArray(d.issues)) {
    fields.reasons = [
      ...new Set(
        d.issues.map((issue) => {
          const code = String(issue).split(':')[0]!;
          return /^[a-z_]{1,40}$/.test(code) ? code : 'other';
        }),
      ),
    ];
  }
  return fields;
}
