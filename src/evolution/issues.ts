import type { ErrorCode } from '../core/index.js';

/** The codes evolution reports; each is in core's ERROR_CODES with its HTTP status. */
export type EvolutionIssueCode = Extract<
  ErrorCode,
  | 'INVALID_QUALIFIED_EVENT'
  | 'UNSUPPORTED_SCHEMA_VERSION'
  | 'EVENT_UNSIGNED'
  | 'POLICY_HASH_MISMATCH'
  | 'INVALID_ASSET'
  | 'GOVERNANCE_EMPTY'
  | 'GOVERNANCE_CONTRADICTORY'
  | 'GOVERNANCE_UNREPRESENTABLE'
  | 'GOVERNANCE_UNENFORCEABLE'
  | 'GOVERNANCE_FORBIDS'
  | 'GOVERNANCE_WIDENED'
  | 'SOURCE_POLICY_MISMATCH'
  | 'DECLASSIFICATION_UNAUTHORIZED'
  | 'SIGNATURE_INVALID'
  | 'CHAIN_INVALID'
  | 'ISSUER_REVOKED'
  | 'INVALID_CERTIFICATE'
  | 'HASH_MISMATCH'
>;

/**
 * Why an event, an asset or a resolution was refused: a stable code, a reason in words, and, when
 * one field is at fault, its path (`privacy_boundary.constraints[1].id`, `training_policy`).
 */
export interface EvolutionIssue {
  readonly code: EvolutionIssueCode;
  readonly message: string;
  readonly path?: string;
}

/** A failed result with one issue. */
export function refuse(
  code: EvolutionIssueCode,
  message: string,
  path?: string,
): { readonly ok: false; readonly issues: readonly EvolutionIssue[] } {
  return { ok: false, issues: [path === undefined ? { code, message } : { code, message, path }] };
}
