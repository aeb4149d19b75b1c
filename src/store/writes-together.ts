import { CanonryError } from '../core/index.js';
import type { Queryable, SqlValue, Write } from './types.js';

/** The statement a write is and the table it changes: `INSERT INTO t`, `UPDATE t`, `DELETE FROM t`. */
const WRITE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([A-Za-z_][A-Za-z0-9_]*)\b/i;

/** PostgreSQL's bound on the parameters of one statement. */
const MAX_PARAMS = 65_535;

/**
 * Refuses what may not run together: a statement that is not one INSERT, UPDATE or DELETE, or two
 * writes to one table. Run as one statement (PostgreSQL), the writes see the rows as they were
 * before all of them, so only writes to different tables, none reading another's rows, keep the
 * meaning they have run one after the other.
 */
export function checkTogether(writes: readonly Write[]): void {
  const tables = new Set<string>();
  for (const w of writes) {
    const table = WRITE.exec(w.sql)?.[1]?.toLowerCase();
    if (!table || w.sql.includes(';'))
      throw new CanonryError(
        'INTERNAL',
        'writes run together must each be one INSERT, UPDATE or DELETE',
      );
    if (tables.has(table))
      throw new CanonryError('INTERNAL', `writes run together change ${table} twice`);
    tables.add(table);
  }
}

/**
 * One statement for several writes to different tables: each but the last as a data-modifying
 * `WITH` part, its `$n` renumbered after the parameters of the writes before it. Null when the
 * parameters would pass PostgreSQL's bound (the writes then run one by one).
 */
export function togetherStatement(
  writes: readonly Write[],
): { readonly sql: string; readonly params: SqlValue[] } | null {
  const params: SqlValue[] = [];
  const parts: string[] = [];
  for (const w of writes) {
    const offset = params.length;
    parts.push(
      offset === 0 ? w.sql : w.sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + offset}`),
    );
    params.push(...w.params);
  }
  if (params.length > MAX_PARAMS) return null;
  const last = parts.pop()!;
  if (parts.length === 0) return { sql: last, params };
  return { sql: `WITH ${parts.map((p, i) => `w${i} AS (${p})`).join(', ')} ${last}`, params };
}

/**
 * Runs writes to different tables that read none of one another's rows (see `checkTogether`), in
 * order: in one round trip where the transaction can (`Queryable.runTogether`: PostgreSQL), else
 * one after the other. Their texts hold `$n` only as placeholders (never inside a literal): the
 * numbers are moved when they are put together.
 */
export async function runTogether(tx: Queryable, writes: readonly Write[]): Promise<void> {
  checkTogether(writes);
  if (tx.runTogether && writes.length > 1) return tx.runTogether(writes);
  for (const w of writes) await tx.run(w.sql, w.params);
}

/**
 * Runs writes none of which reads rows another writes: the first write to each table together
 * (`runTogether`: one round trip on PostgreSQL), then each later write to a table already written
 * (the further pieces of a long list of rows), one by one in order. A table's writes keep their
 * order; writes to different tables need none.
 */
export async function runWrites(tx: Queryable, writes: readonly Write[]): Promise<void> {
  const tables = new Set<string>();
  const first: Write[] = [];
  const later: Write[] = [];
  for (const w of writes) {
    const table = WRITE.exec(w.sql)?.[1]?.toLowerCase() ?? '';
    (tables.has(table) ? later : first).push(w);
    tables.add(table);
  }
  await runTogether(tx, first);
  for (const w of later) await tx.run(w.sql, w.params);
}
