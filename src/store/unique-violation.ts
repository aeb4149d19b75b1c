/**
 * Whether a statement failed on a primary key or unique index: another transaction wrote the same
 * key first. PostgreSQL's SQLSTATE 23505, or SQLite's extended result codes for the two.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}
