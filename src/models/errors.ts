import { CanonryError } from '../core/index.js';

/**
 * The failures a model port reports: unreachable (502), busy or cooling down (503, with a retry
 * hint), and an answer without usable output (422).
 */
export type ModelErrorCode = 'MODEL_UNAVAILABLE' | 'MODEL_BUSY' | 'MODEL_OUTPUT_INVALID';

/** Public, secret-free facts about a model failure, carried in the error's details. */
export interface ModelFailureFacts {
  /** The HTTP status the model server answered with, when it answered. */
  readonly upstream_status?: number;
  /** Whole seconds to wait before trying again (MODEL_BUSY). */
  readonly retry_after_s?: number;
}

/** A typed model failure with a secret-free message; `details.route` names the model. */
export function modelError(
  code: ModelErrorCode,
  message: string,
  route?: string,
  facts: ModelFailureFacts = {},
): CanonryError {
  const details = { ...(route === undefined ? {} : { route }), ...facts };
  return new CanonryError(code, message, Object.keys(details).length > 0 ? details : undefined);
}

/** The model failure an error stands for, or undefined when it is not one. */
export function modelErrorCode(error: unknown): ModelErrorCode | undefined {
  if (!(error instanceof CanonryError)) return undefined;
  return error.code === 'MODEL_UNAVAILABLE' ||
    error.code === 'MODEL_BUSY' ||
    error.code === 'MODEL_OUTPUT_INVALID'
    ? error.code
    : undefined;
}

/** True for the failures that mean the model could not be asked (unreachable or busy), not bad output. */
export function isModelOutage(error: unknown): error is CanonryError {
  const code = modelErrorCode(error);
  return code === 'MODEL_UNAVAILABLE' || code === 'MODEL_BUSY';
}
