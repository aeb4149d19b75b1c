import type { Capabilities, Store } from './types.js';

/** One schema change. The position in {@link MIGRATIONS} is its version; the list only grows. */
export interface Migration {
  readonly name: string;
  /** The statements, the same for every engine or one text per dialect. */
  readonly up: string | Readonly<Record<Capabilities['dialect'], string>>;
}

/** Every schema change, in order. Never edit or reorder an entry that has shipped: append. */
export const MIGRATIONS: readonly Migration[] = [
  {
    name: 'journal',
    up: `
      CREATE TABLE journal_entries (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        format INTEGER NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        actor TEXT NOT NULL,
        authority TEXT NOT NULL,
        correlation_id TEXT,
        idempotency_key TEXT,
        receipt TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
      CREATE UNIQUE INDEX journal_entries_idempotency
        ON journal_entries (project, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE TABLE journal_heads (
        project TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE TABLE journal_checkpoints (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        checkpoint TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
      CREATE TABLE journal_receipts (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        receipt_hash TEXT NOT NULL,
        receipt TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
    `,
  },
];

/**
 * Brings the schema up to date: applies, in one exclusive transaction each, every migration whose
 * version is past the recorded one. Safe to run on every start and from many processes at once.
 */
export async function migrate(
  store: Store,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  await store.transaction(
    (tx) =>
      tx.exec(
        'CREATE TABLE IF NOT EXISTS canonry_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      ),
    { exclusive: true },
  );
  let applied = 0;
  for (let version = 1; version <= migrations.length; version++) {
    const migration = migrations[version - 1]!;
    const done = await store.transaction(
      async (tx) => {
        const rows = await tx.all('SELECT version FROM canonry_migrations WHERE version = $1', [
          version,
        ]);
        if (rows.length > 0) return false;
        const sql =
          typeof migration.up === 'string'
            ? migration.up
            : migration.up[store.capabilities.dialect];
        await tx.exec(sql);
        await tx.run(
          'INSERT INTO canonry_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
          [version, migration.name, new Date().toISOString()],
        );
        return true;
      },
      { exclusive: true },
    );
    if (done) applied++;
  }
  return applied;
}

/** The schema version recorded in the store (0 before any migration). */
export async function schemaVersion(store: Store): Promise<number> {
  const rows = await store.all<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM canonry_migrations',
  );
  return Number(rows[0]?.v ?? 0);
}
