import type { ContentHash } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import { genesisHash } from './entry-hash.js';

/** Where a project's stored chain starts: after a pruned prefix, or at genesis. */
export interface ChainBase {
  /** The last pruned seq (0 when nothing was pruned). */
  readonly seq: number;
  /** The hash of that entry (the genesis hash when nothing was pruned). */
  readonly hash: ContentHash;
  /** The signed checkpoint over (seq, hash), as stored (hostile until verified); null at genesis. */
  readonly checkpoint: unknown;
}

/** The project's chain base: its pruned prefix's anchor, or genesis. */
export async function readBase(db: Pick<Queryable, 'all'>, project: string): Promise<ChainBase> {
  const rows = await db.all<{ seq: number; hash: string; checkpoint: string }>(
    'SELECT seq, hash, checkpoint FROM journal_bases WHERE project = $1',
    [project],
  );
  const row = rows[0];
  if (!row) return { seq: 0, hash: genesisHash(project), checkpoint: null };
  let checkpoint: unknown = null;
  try {
    checkpoint = JSON.parse(row.checkpoint);
  } catch {
    checkpoint = null;
  }
  return { seq: Number(row.seq), hash: row.hash as ContentHash, checkpoint };
}
