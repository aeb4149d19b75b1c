/**
 * How many values a statement built from a list binds per item of the list is the caller's; how
 * many items go in one statement is bounded here, far below either engine's bound on parameters
 * (SQLite 32,766, PostgreSQL 65,535) for the few values an item binds.
 */
export const STATEMENT_PIECE = 500;

/**
 * The `VALUES` list of a multi-row statement: `rows` rows of `columns` parameters each, numbered
 * row after row from `$from` — `($1, $2), ($3, $4)` for two rows of two from `$1`.
 */
export function rowPlaceholders(rows: number, columns: number, from = 1): string {
  return Array.from({ length: rows }, (_, r) => {
    const first = from + r * columns;
    return `(${Array.from({ length: columns }, (_, c) => `$${first + c}`).join(', ')})`;
  }).join(', ');
}

/** `list` cut into consecutive pieces of at most `size` items (none for an empty list). */
export function pieces<T>(list: readonly T[], size = STATEMENT_PIECE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
