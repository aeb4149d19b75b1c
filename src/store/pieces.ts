import { LruCache } from '../core/index.js';

/**
 * How many values a statement built from a list binds per item of the list is the caller's; how
 * many items go in one statement is bounded here, far below either engine's bound on parameters
 * (SQLite 32,766, PostgreSQL 65,535) for the few values an item binds.
 */
export const STATEMENT_PIECE = 500;

/**
 * The `VALUES` list of a multi-row statement: `rows` rows of `columns` parameters each, numbered
 * row after row — `($1, $2), ($3, $4)` for two rows of two. With `shared`, every row starts with
 * `$1`…`$shared` (values all rows share, bound once) and its own parameters come after them:
 * `($1, $2), ($1, $3)` for two rows of one with one shared.
 */
export function rowPlaceholders(rows: number, columns: number, shared = 0): string {
  const lead = Array.from({ length: shared }, (_, c) => `$${c + 1}`);
  return Array.from({ length: rows }, (_, r) => {
    const first = shared + r * columns + 1;
    const own = Array.from({ length: columns }, (_, c) => `$${first + c}`);
    return `(${[...lead, ...own].join(', ')})`;
  }).join(', ');
}

/** `list` cut into consecutive pieces of at most `size` items (none for an empty list). */
export function pieces<T>(list: readonly T[], size = STATEMENT_PIECE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Texts one {@link perCount} keeps, at most: the counts most recently asked for. */
export const PER_COUNT_KEPT = 64;

/**
 * `make(count)` for a statement's text, made once per count and kept: the same string every time,
 * so a statement cache keyed by text finds it without hashing a kilobyte of new text. Counts are
 * pieces' sizes, at most {@link STATEMENT_PIECE}, and the {@link PER_COUNT_KEPT} most recently used
 * are kept (a text of 500 rows of a dozen columns is ~45 KB; every count of one statement, ~12 MB).
 */
export function perCount(make: (count: number) => string): (count: number) => string {
  const made = new LruCache<number, string>(PER_COUNT_KEPT);
  return (count) => {
    let text = made.get(count);
    if (text === undefined) {
      text = make(count);
      made.set(count, text);
    }
    return text;
  };
}
