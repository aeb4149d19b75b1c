import type { ContentHash } from '../core/index.js';

/** The three verdict classes of TCP/AP §5. */
export type VerdictClass = 'CONFORMANT' | 'INVALID_REQUEST' | 'INTERPRETATION_DRIFT';

/** Every verdict class, in a fixed order. */
export const VERDICT_CLASSES: readonly VerdictClass[] = Object.freeze([
  'CONFORMANT',
  'INVALID_REQUEST',
  'INTERPRETATION_DRIFT',
]);

/** Where an artifact failed the constraints: pointers only, never the offending values. */
export interface ConstraintError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
}

/** Why the kernel reached a verdict. */
export type VerdictReason =
  | 'matched'
  | 'constraints'
  | 'not-json'
  | 'no-match'
  | 'ambiguous'
  | 'rule-error'
  /** The evaluation spent its whole step budget (constraints or rules): a deterministic outcome. */
  | 'budget-exhausted';

/** The kernel's private reasoning, for the server-side audit record only (TCP/AP §5, §6). */
export interface VerdictDetail {
  reason: VerdictReason;
  constraintErrors?: ConstraintError[];
  matched?: { rule: number; label: string }[];
  ruleError?: { rule: number; message: string };
  /** Which budget ran out, its limit in steps, and the rule that was running (rules only). */
  budget?: { phase: 'constraints' | 'rules'; limit: number; rule?: number };
  /** Constraint errors left out of `constraintErrors` (the audit keeps a bounded number). */
  omittedErrors?: number;
}

/** The outcome of resolving one artifact against one compiled protocol. */
export interface Verdict {
  readonly class: VerdictClass;
  /** The resolved label; non-null exactly when the class is CONFORMANT. */
  readonly label: string | null;
  readonly protocolHash: ContentHash;
  /** The artifact's content hash; null only when the artifact is not JSON. */
  readonly artifactHash: ContentHash | null;
  /** PRIVATE: never send this to a client. */
  readonly detail: VerdictDetail;
}
