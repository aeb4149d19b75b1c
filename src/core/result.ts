/** The outcome of a check whose failure is expected: a value, or the issues that prevented it. */
export type Result<T, I = string> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly I[] };

/** A successful {@link Result}. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** A failed {@link Result}. */
export function fail<I>(...issues: I[]): { readonly ok: false; readonly issues: readonly I[] } {
  return { ok: false, issues };
}
