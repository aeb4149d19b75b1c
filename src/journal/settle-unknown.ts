import { CanonryError, isCanonryError } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { Head } from './types.js';

/** Pauses before the reads that settle an outcome: the first connection a pool hands out after a
 * loss is often one the loss broke too. */
const SETTLE_PAUSES_MS = [0, 50, 200];

/**
 * Whether a batch whose commit's outcome is unknown is stored: its last entry of each project, with
 * the hash it was built with. A batch commits whole (its heads, rows and checkpoints in one
 * transaction or statement), so `all` means it committed and `none` that it had not when read;
 * `mixed` cannot happen short of a broken store. Reads that keep failing settle nothing (undefined).
 */
export async function storedTails(
  store: Queryable,
  tails: Iterable<Head>,
): Promise<'all' | 'none' | 'mixed' | undefined> {
  const wanted = [...tails];
  for (const pause of SETTLE_PAUSES_MS) {
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    let found = 0;
    try {
      for (const tail of wanted) {
        const rows = await store.all<{ hash: string }>(
          'SELECT hash FROM journal_entries WHERE project = $1 AND seq = $2',
          [tail.project, tail.seq],
        );
        if (rows[0]?.hash === tail.hash) found++;
      }
    } catch {
      continue;
    }
    return found === wanted.length ? 'all' : found === 0 ? 'none' : 'mixed';
  }
  return undefined;
}

/**
 * After an autocommit statement that appends (`tail` its last entry) failed with `err`: a store
 * that became unreachable may have run it all the same. Read back, the entry settles it when
 * stored (the answer was lost, not the write): resolves. Absent, nothing is settled — the server
 * may still be running it — and `err` is rethrown as STORE_UNAVAILABLE with `outcome: 'unknown'`,
 * so no caller takes it for a write that never happened. Other failures are rethrown as they are.
 */
export async function settleStatement(store: Queryable, tail: Head, err: unknown): Promise<void> {
  if (!isCanonryError(err, 'STORE_UNAVAILABLE')) throw err;
  if ((await storedTails(store, [tail])) === 'all') return;
  throw new CanonryError('STORE_UNAVAILABLE', err.message, { outcome: 'unknown' }, { cause: err });
}
