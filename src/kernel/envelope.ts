import { ERROR_CODES } from '../core/index.js';
import type { ConformanceEvent } from './event.js';
import type { VerdictClass } from './verdict.js';

/** The unified response envelope of TCP/AP §6. */
export interface ValidateEnvelope {
  readonly status: 'EVALUATED' | 'REJECTED';
  readonly data: { readonly conformant: boolean; readonly label: string | null };
  readonly error: { readonly failure_code: string; readonly message: string } | null;
  readonly attestation: ConformanceEvent | null;
}

/** The HTTP status of each verdict class (§5). */
export const VERDICT_STATUS: Readonly<Record<VerdictClass, 200 | 400 | 422>> = {
  CONFORMANT: 200,
  INVALID_REQUEST: 400,
  INTERPRETATION_DRIFT: 422,
};

/**
 * The envelope for an evaluated verdict. It carries the class and a generic message only: the
 * kernel's reasoning stays in the private audit record (§5, §6).
 */
export function verdictEnvelope(
  verdictClass: VerdictClass,
  label: string | null,
  attestation: ConformanceEvent | null,
): ValidateEnvelope {
  if (verdictClass === 'CONFORMANT') {
    return { status: 'EVALUATED', data: { conformant: true, label }, error: null, attestation };
  }
  return {
    status: 'EVALUATED',
    data: { conformant: false, label: null },
    error: { failure_code: verdictClass, message: ERROR_CODES[verdictClass].message },
    attestation: null,
  };
}

/** The envelope for a request that was never evaluated (malformed body, unknown protocol, …). */
export function rejectionEnvelope(code: string, message: string): ValidateEnvelope {
  return {
    status: 'REJECTED',
    data: { conformant: false, label: null },
    error: { failure_code: code, message },
    attestation: null,
  };
}
