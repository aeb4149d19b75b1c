import { CanonryError, type ErrorCode, type Result } from '../core/index.js';

/** The value of a successful check, or its first issue thrown as a typed {@link CanonryError}. */
export function unwrap<T>(result: Result<T, { code: ErrorCode; message: string }>): T {
  if (result.ok) return result.value;
  const [first] = result.issues;
  throw new CanonryError(first?.code ?? 'INTERNAL', first?.message);
}
