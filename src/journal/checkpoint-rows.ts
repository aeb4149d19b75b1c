import type { Queryable } from '../store/index.js';
import type { Checkpoint } from './checkpoint.js';

/** Stores a signed checkpoint (a second one at the same seq changes nothing). */
export const INSERT_CHECKPOINT =
  'INSERT INTO journal_checkpoints (project, seq, checkpoint) VALUES ($1, $2, $3) ON CONFLICT (project, seq) DO NOTHING';

/** The parameters of {@link INSERT_CHECKPOINT} for a checkpoint. */
export function checkpointParams(checkpoint: Checkpoint): [string, number, string] {
  return [checkpoint.project, checkpoint.seq, JSON.stringify(checkpoint)];
}

/** Stores a signed checkpoint inside `tx`. */
export async function storeCheckpoint(tx: Queryable, checkpoint: Checkpoint): Promise<void> {
  await tx.run(INSERT_CHECKPOINT, checkpointParams(checkpoint));
}
