import type { Store } from '../store/index.js';
import { type EntryRow, rowToEntry } from './entry.js';
import type { ChainItem } from './verify-chain.js';

/** Rows read per page when walking a whole project. */
export const PAGE = 5_000;

/**
 * Every entry of a project in seq order, paged so a million-entry project never sits in memory at
 * once. A row that does not parse is yielded as `{ unreadable: seq }` rather than thrown.
 */
export async function* scanEntries(
  store: Pick<Store, 'all'>,
  project: string,
  after = 0,
): AsyncGenerator<ChainItem> {
  let cursor = after;
  for (;;) {
    const rows = await store.all<EntryRow>(
      'SELECT * FROM journal_entries WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3',
      [project, cursor, PAGE],
    );
    for (const row of rows) {
      try {
        yield rowToEntry(row);
      } catch {
        yield { unreadable: Number(row.seq) };
      }
    }
    if (rows.length < PAGE) return;
    cursor = Number(rows[rows.length - 1]!.seq);
  }
}
