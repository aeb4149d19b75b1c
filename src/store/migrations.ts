import type { Capabilities, Store } from './types.js';

/** One schema change. Its position in its module's list is its version; a list only grows. */
export interface Migration {
  readonly name: string;
  /** The statements, the same for every engine or one text per dialect. */
  readonly up: string | Readonly<Record<Capabilities['dialect'], string>>;
}

/** Each module's own migration list, by module name; modules never share a table. */
export type MigrationSets = Readonly<Record<string, readonly Migration[]>>;

/**
 * Brings the schema up to date: for each module, applies (in one exclusive transaction each) every
 * migration whose version is past the one recorded for that module. Safe to run on every start and
 * from many processes at once.
 */
export async function migrate(store: Store, sets: MigrationSets): Promise<number> {
  await store.transaction(
    (tx) =>
      tx.exec(
        'CREATE TABLE IF NOT EXISTS canonry_migrations (module TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (module, version))',
      ),
    { exclusive: true },
  );
  let applied = 0;
  for (const [module, migrations] of Object.entries(sets)) {
    for (let version = 1; version <= migrations.length; version++) {
      if (await applyOne(store, module, version, migrations[version - 1]!)) applied++;
    }
  }
  return applied;
}

function applyOne(
  store: Store,
  module: string,
  version: number,
  migration: Migration,
): Promise<boolean> {
  return store.transaction(
    async (tx) => {
      const rows = await tx.all(
        'SELECT version FROM canonry_migrations WHERE module = $1 AND version = $2',
        [module, version],
      );
      if (rows.length > 0) return false;
      const sql =
        typeof migration.up === 'string' ? migration.up : migration.up[store.capabilities.dialect];
      await tx.exec(sql);
      await tx.run(
        'INSERT INTO canonry_migrations (module, version, name, applied_at) VALUES ($1, $2, $3, $4)',
        [module, version, migration.name, new Date().toISOString()],
      );
      return true;
    },
    { exclusive: true },
  );
}

/** The schema version recorded for a module (0 before any of its migrations). */
export async function schemaVersion(store: Store, module: string): Promise<number> {
  const rows = await store.all<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM canonry_migrations WHERE module = $1',
    [module],
  );
  return Number(rows[0]?.v ?? 0);
}
