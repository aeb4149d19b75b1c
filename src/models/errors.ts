import { CanonryError } from '../core/index.js';

/** The two failures a model port reports. */
export type ModelErrorCode = 'MODEL_UNAVAILABLE' | 'MODEL_OUTPUT_INVALID';

/** A typed model failure with a secret-free message. */
export function modelError(code: ModelErrorCode, message: string, route?: string): CanonryError {
  return new CanonryError(code, message, route === undefined ? undefined : { route });
}

/** The model failure an error stands for, or undefined when it is not one. */
export function modelErrorCode(error: unknown): ModelErrorCode | undefined {
  if (!(error instanceof CanonryError)) return undefined;
  return error.code === 'MODEL_UNAVAILABLE' || error.code === 'MODEL_OUTPUT_INVALID'
    ? error.code
    : undefined;
}
