import { canonicalize } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import { receiptFor } from './receipt.js';
import type { JournalEntry, Projection } from './types.js';

/** The receipts of every entry (LCSM §7), derived from the entry alone. */
export const RECEIPTS: Projection = {
  name: 'receipts',
  kinds: '*',
  tables: ['journal_receipts'],
  async apply(tx, entry) {
    const receipt = receiptFor(entry);
    await tx.run(
      'INSERT INTO journal_receipts (project, seq, receipt_hash, receipt) VALUES ($1, $2, $3, $4)',
      [entry.project, entry.seq, receipt.receipt_hash, canonicalize(receipt)],
    );
  },
};

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
