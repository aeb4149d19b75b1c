import { randomUUID } from 'node:crypto';
import type { Migration } from './migrations.js';
import type { Store } from './types.js';

/** What a database says about itself: its id and the trust root its journals are signed under. */
export interface StoreIdentity {
  /** Minted when the database was first claimed; a data directory remembers it. */
  readonly store_id: string;
  /** `sha256:` fingerprint of the keyring root every checkpoint and verdict here chains to. */
  readonly root_fingerprint: string;
  readonly created_at: string;
}

/** The one-row table that names a database. */
export const STORE_IDENTITY_MIGRATIONS: readonly Migration[] = [
  {
    name: 'identity',
    up: `CREATE TABLE canonry_store (
      id INTEGER PRIMARY KEY,
      store_id TEXT NOT NULL,
      root_fingerprint TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
  },
];

/**
 * The database's identity, recorded on first use with `rootFingerprint`: the first process to claim
 * a database decides its root; every later one reads it (and its caller refuses to run on another
 * root). Safe against concurrent first starts: the insert is a no-op for all but one of them.
 */
export async function claimStore(store: Store, rootFingerprint: string): Promise<StoreIdentity> {
  await store.run(
    'INSERT INTO canonry_store (id, store_id, root_fingerprint, created_at) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING',
    [randomUUID(), rootFingerprint, new Date().toISOString()],
  );
  const rows = await store.all<StoreIdentity>(
    'SELECT store_id, root_fingerprint, created_at FROM canonry_store WHERE id = 1',
  );
  return rows[0]!;
}
