import { CanonryError, type ContentHash } from '../core/index.js';
import { readBase } from './base.js';
import { signCheckpoint } from './checkpoint.js';
import { rowHash } from './entry-hash.js';
import { parseProject } from './entry-input.js';
import { type EntryRow, SELECT_ENTRIES } from './entry-row.js';
import type { Journal } from './journal.js';

/** What a prune removed. */
export interface PruneResult {
  readonly project: string;
  /** Entries deleted. */
  readonly pruned: number;
  /** The chain's base afterwards: it starts after this seq (0 when nothing was ever pruned). */
  readonly base: number;
}

/** Entries deleted per transaction, so a large prune never holds the write lock for long. */
const CHUNK = 2_000;

/**
 * Deletes the oldest entries of a prunable project (the kernel's audit: `JournalOptions.prunable`)
 * that were appended before `before`, in chunks of one transaction each. Each chunk first checks
 * the rows it removes (hashes and links from the current base), then signs a checkpoint over the
 * last of them and records it as the chain's new base, so the rest of the chain still verifies from
 * a signed anchor. A journal that canon projects from is never pruned: its history is the truth.
 */
export async function pruneProject(
  journal: Journal,
  project: string,
  before: Date,
  signer: Parameters<typeof signCheckpoint>[3],
): Promise<PruneResult> {
  const name = parseProject(project);
  if (!journal.prunable(name)) {
    throw new CanonryError(
      'FORBIDDEN',
      `the journal of ${name} is append-only history and is never pruned`,
      { project: name },
    );
  }
  const cutoff = before.toISOString();
  const lock = journal.store.capabilities.rowLocks ? ' FOR UPDATE' : '';
  let pruned = 0;
  for (;;) {
    const step = await journal.store.transaction(async (tx) => {
      await tx.all(`SELECT seq FROM journal_heads WHERE project = $1${lock}`, [name]);
      const base = await readBase(tx, name);
      const rows = await tx.values<EntryRow>(
        `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [name, base.seq, CHUNK],
      );
      let last = null as { seq: number; hash: ContentHash } | null;
      let prev: string = base.hash;
      for (const row of rows) {
        if (row[3] >= cutoff) break;
        const seq = Number(row[1]);
        if (seq !== (last?.seq ?? base.seq) + 1 || row[11] !== prev || rowHash(row) !== row[12]) {
          throw new CanonryError(
            'CHAIN_BROKEN',
            `entry ${seq} of ${name} does not verify; nothing pruned`,
            { seq, reason: 'hash-mismatch' },
          );
        }
        last = { seq, hash: row[12] as ContentHash };
        prev = row[12];
      }
      if (last === null) return { removed: 0, base: base.seq };
      const checkpoint = signCheckpoint(name, last.seq, last.hash, signer);
      const text = JSON.stringify(checkpoint);
      await tx.run('DELETE FROM journal_bases WHERE project = $1', [name]);
      await tx.run(
        'INSERT INTO journal_bases (project, seq, hash, checkpoint) VALUES ($1, $2, $3, $4)',
        [name, last.seq, last.hash, text],
      );
      await tx.run(
        'INSERT INTO journal_checkpoints (project, seq, checkpoint) VALUES ($1, $2, $3) ON CONFLICT (project, seq) DO NOTHING',
        [name, last.seq, text],
      );
      const removed = await tx.run(
        'DELETE FROM journal_entries WHERE project = $1 AND seq > $2 AND seq <= $3',
        [name, base.seq, last.seq],
      );
      await tx.run('DELETE FROM journal_checkpoints WHERE project = $1 AND seq < $2', [
        name,
        last.seq,
      ]);
      return { removed, base: last.seq };
    });
    pruned += step.removed;
    if (step.removed < CHUNK) return { project: name, pruned, base: step.base };
  }
}
