import type { Migration } from './migrations.js';
import type { Capabilities } from './types.js';

/**
 * The column type of text canonry orders or compares by range (ids listed in id order, a keyset
 * cursor, a prefix range): byte order of its UTF-8 on every engine. SQLite's `TEXT` compares so
 * (`BINARY`); PostgreSQL's compares by the database's default collation, which on most production
 * databases is linguistic (`en_US.UTF-8`, ICU: 'a' < 'B', '_' < '-' < '.' < digits, accents after
 * their letter), so its key columns say `COLLATE "C"`. Byte order is code point order, and
 * JavaScript's `<` (`compareCodeUnits`) agrees with it below U+10000, which is all canonry's
 * identifiers hold (ASCII).
 */
export const BYTE_ORDER_TEXT: Readonly<Record<Capabilities['dialect'], string>> = {
  sqlite: 'TEXT',
  postgres: 'TEXT COLLATE "C"',
};

/**
 * A migration's statements that make existing text columns compare in byte order (the type of
 * {@link BYTE_ORDER_TEXT}), by table: nothing to do on SQLite; on PostgreSQL the column's collation
 * becomes "C" and the indexes holding it are rebuilt (the rows are not rewritten), so an `ORDER BY`
 * on it is still read from its index.
 */
export function textInByteOrder(
  tables: Readonly<Record<string, readonly string[]>>,
): Migration['up'] {
  const alter = Object.entries(tables).map(
    ([table, columns]) =>
      `ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE ${BYTE_ORDER_TEXT.postgres}`).join(', ')};`,
  );
  return { sqlite: 'SELECT 1;', postgres: alter.join('\n') };
}
