/** A statement rewritten for SQLite: `$n` placeholders become `?`, with the order to bind in. */
export interface PositionalSql {
  readonly sql: string;
  /** For each `?`, the zero-based index of the parameter it takes. */
  readonly order: readonly number[];
}

/**
 * Rewrites `$1, $2, …` (the placeholder style every canonry statement uses) to SQLite's positional
 * `?`, remembering which parameter each position takes so `$1` may appear more than once.
 */
export function toPositional(sql: string): PositionalSql {
  const order: number[] = [];
  const rewritten = sql.replace(/\$(\d+)/g, (_match, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { sql: rewritten, order };
}
