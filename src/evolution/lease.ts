import type { Store } from '../store/index.js';

/** Who holds the coordinator's lease on a database, as the database says. */
export interface LeaseHolder {
  readonly holder: string;
  /** Milliseconds since the epoch, by the database's clock. */
  readonly expires_at: number;
}

export interface LeaseOptions {
  /** The lease's name (the coordinator's): one holder per name per database. */
  readonly name: string;
  /** This process's id among the holders (unique per process). */
  readonly holder: string;
  /** How long a lease lasts unless renewed (default 15 s). */
  readonly ttlMs?: number;
}

/** Now in milliseconds by the database's clock, so hosts whose clocks disagree agree on expiry. */
export const NOW_MS = {
  postgres: '(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT',
  sqlite: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
} as const;

/**
 * The lease that makes one coordinator per database dispatch: a row `(name, holder, expires_at)` in
 * `evolution_leases`, taken when absent or expired and renewed by its holder, in one statement
 * (the row's lock orders the takers; the expiry is the database's clock, never a host's). On a
 * store no other process shares (SQLite: one process owns the file) it is held without a row.
 */
export class CoordinatorLease {
  readonly name: string;
  readonly holder: string;
  readonly ttlMs: number;
  readonly #store: Store;

  constructor(store: Store, options: LeaseOptions) {
    this.#store = store;
    this.name = options.name;
    this.holder = options.holder;
    this.ttlMs = options.ttlMs ?? 15_000;
  }

  /** Whether the lease is decided by a row (a shared store) or held by the only process. */
  get shared(): boolean {
    return this.#store.capabilities.shared;
  }

  /** Takes the lease when it is free or expired, renews it when held; true when held after. */
  async acquire(): Promise<boolean> {
    if (!this.shared) return true;
    const now = NOW_MS[this.#store.capabilities.dialect];
    const changed = await this.#store.run(
      `INSERT INTO evolution_leases (name, holder, expires_at) VALUES ($1, $2, ${now} + $3)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE evolution_leases.holder = excluded.holder OR evolution_leases.expires_at <= ${now}`,
      [this.name, this.holder, this.ttlMs],
    );
    return changed === 1;
  }

  /** Gives the lease up (when held), so a standby takes over at its next try. */
  async release(): Promise<void> {
    if (!this.shared) return;
    await this.#store.run('DELETE FROM evolution_leases WHERE name = $1 AND holder = $2', [
      this.name,
      this.holder,
    ]);
  }

  /** Who holds it now (null: nobody, or an expired holder). */
  async current(): Promise<LeaseHolder | null> {
    if (!this.shared) return { holder: this.holder, expires_at: Number.MAX_SAFE_INTEGER };
    const now = NOW_MS[this.#store.capabilities.dialect];
    const [row] = await this.#store.all<{ holder: string; expires_at: number | string }>(
      `SELECT holder, expires_at FROM evolution_leases WHERE name = $1 AND expires_at > ${now}`,
      [this.name],
    );
    return row ? { holder: row.holder, expires_at: Number(row.expires_at) } : null;
  }
}
