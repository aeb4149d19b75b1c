import type { VerdictDetail } from './verdict.js';

/** Bounds on what one verdict's private audit record may hold, whatever the protocol and artifact. */
export const AUDIT_LIMITS = Object.freeze({
  /** Constraint errors kept; the rest are counted in `omittedErrors`. */
  maxConstraintErrors: 8,
  /** Matched rules kept (exclusive resolution may match up to 256). */
  maxMatched: 16,
  /** Longest pointer, keyword or message kept, in characters. */
  maxText: 256,
});

function clip(text: string): string {
  return text.length > AUDIT_LIMITS.maxText ? `${text.slice(0, AUDIT_LIMITS.maxText - 1)}…` : text;
}

/**
 * The verdict detail as the audit keeps it: the first few constraint errors and matched rules, with
 * a count of what was left out, and every string clipped. A record's size is then bounded by these
 * limits alone (a few KiB), never by what a hostile protocol or artifact makes the engines report.
 */
export function boundedDetail(detail: VerdictDetail): VerdictDetail {
  const out: VerdictDetail = { reason: detail.reason };
  if (detail.constraintErrors !== undefined) {
    const kept = detail.constraintErrors.slice(0, AUDIT_LIMITS.maxConstraintErrors);
    out.constraintErrors = kept.map((e) => ({
      instancePath: clip(e.instancePath),
      schemaPath: clip(e.schemaPath),
      keyword: clip(e.keyword),
    }));
    const omitted = detail.constraintErrors.length - kept.length + (detail.omittedErrors ?? 0);
    if (omitted > 0) out.omittedErrors = omitted;
  } else if (detail.omittedErrors !== undefined) {
    out.omittedErrors = detail.omittedErrors;
  }
  if (detail.matched !== undefined) {
    out.matched = detail.matched
      .slice(0, AUDIT_LIMITS.maxMatched)
      .map((m) => ({ rule: m.rule, label: clip(m.label) }));
  }
  if (detail.ruleError !== undefined) {
    out.ruleError = { rule: detail.ruleError.rule, message: clip(detail.ruleError.message) };
  }
  if (detail.budget !== undefined) out.budget = { ...detail.budget };
  return out;
}
