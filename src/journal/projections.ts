import type { Queryable } from '../store/index.js';
import type { JournalEntry, Projection } from './types.js';

/** Applies every projection that consumes the entry's kind, in declaration order. */
export async function applyProjections(
  tx: Queryable,
  projections: readonly Projection[],
  entry: JournalEntry,
): Promise<void> {
  for (const projection of projections) {
    if (projection.kinds === '*' || projection.kinds.includes(entry.kind))
      await projection.apply(tx, entry);
  }
}
