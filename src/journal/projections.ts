import type { Queryable } from '../store/index.js';
import type { JournalEntry, Projection } from './types.js';

/**
 * Applies the projections that consume the entry's kind (`consumers`, as the journal and a rebuild
 * pick them: in declaration order); those with a `settle` are added to `settling`, to be settled
 * before the transaction commits.
 */
export async function applyProjections(
  tx: Queryable,
  consumers: readonly Projection[],
  entry: JournalEntry,
  settling: Set<Projection>,
): Promise<void> {
  for (const projection of consumers) {
    await projection.apply(tx, entry);
    if (projection.settle) settling.add(projection);
  }
}

/** Settles each projection in `settling` (in the order they were first applied), then forgets them. */
export async function settleProjections(tx: Queryable, settling: Set<Projection>): Promise<void> {
  for (const projection of settling) await projection.settle?.(tx);
  settling.clear();
}
