import type { Store } from '../store/index.js';
import { type EntryRow, rowToEntry, SELECT_ENTRIES } from './entry-row.js';
import type { ChainItem } from './verify-chain.js';

/**
 * Rows read per page when walking a whole project. Small on purpose: a page stays alive while it is
 * walked, and every young-generation collection copies what is alive; 5,000-row pages made a
 * rebuild ~10 % slower.
 */
export const PAGE = 256;

/**
 * Every stored row of a project with `after < seq ≤ upTo`, in seq order, paged so a million-entry
 * project never sits in memory at once.
 */
export async function* scanRows(
  store: Pick<Store, 'values'>,
  project: string,
  after = 0,
  upTo = Number.MAX_SAFE_INTEGER,
): AsyncGenerator<EntryRow> {
  let cursor = after;
  for (;;) {
    const rows = await store.values<EntryRow>(
      `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
      [project, cursor, upTo, PAGE],
    );
    yield* rows;
    if (rows.length < PAGE) return;
    cursor = Number(rows[rows.length - 1]![1]);
  }
}

/** Every entry in that range; a row that does not parse is yielded as `{ unreadable: seq }`. */
export async function* scanEntries(
  store: Pick<Store, 'values'>,
  project: string,
  after = 0,
  upTo = Number.MAX_SAFE_INTEGER,
): AsyncGenerator<ChainItem> {
  for await (const row of scanRows(store, project, after, upTo)) {
    try {
      yield rowToEntry(row);
    } catch {
      yield { unreadable: Number(row[1]) };
    }
  }
}
