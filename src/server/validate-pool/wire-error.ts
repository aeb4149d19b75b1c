import { CanonryError, ERROR_CODES, type ErrorCode } from '../../core/index.js';
import type { WireError } from './messages.js';

/** A throwable as it crosses threads: a CanonryError keeps its code, message and details. */
export function toWire(err: unknown): WireError {
  if (err instanceof CanonryError) {
    return {
      code: err.code,
      message: err.message,
      ...(err.details !== undefined ? { details: err.details } : {}),
    };
  }
  const cause = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return { code: 'INTERNAL', message: ERROR_CODES.INTERNAL.message, cause };
}

/** The CanonryError a wire error stands for; an unknown code (a bug) is INTERNAL. */
export function fromWire(wire: WireError): CanonryError {
  if (!Object.hasOwn(ERROR_CODES, wire.code) || wire.code === 'INTERNAL') {
    return new CanonryError('INTERNAL', undefined, undefined, {
      cause: new Error(wire.cause ?? `${wire.code}: ${wire.message}`),
    });
  }
  return new CanonryError(wire.code as ErrorCode, wire.message, wire.details);
}
