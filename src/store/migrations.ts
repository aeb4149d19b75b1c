import { CanonryError } from '../core/index.js';
import type { Capabilities, Queryable, Store } from './types.js';

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
 * from many processes at once. A database a newer canonry migrated further than `sets` know is
 * refused before anything is applied (SCHEMA_TOO_NEW, see {@link checkSchemaKnown}).
 */
export async function migrate(store: Store, sets: MigrationSets): Promise<number> {
  await store.transaction(
    (tx) =>
      tx.exec(
        'CREATE TABLE IF NOT EXISTS canonry_migrations (module TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (module, version))',
      ),
    { exclusive: true },
  );
  await checkSchemaKnown(store, sets);
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

/**
 * Refuses a database whose recorded schema is past what `sets` know (SCHEMA_TOO_NEW, naming the
 * module, both versions and `name`, the database as the caller calls it): a newer canonry migrated
 * it, and code that does not know a table's new columns or meaning would write rows the newer
 * version reads wrong, or fail on every write. Only the modules in `sets` are looked at: a caller
 * that opens a database for one module (a tool, a test) is not refused for another's.
 */
export async function checkSchemaKnown(
  store: Queryable,
  sets: MigrationSets,
  name = 'the database',
): Promise<void> {
  const rows = await store.all<{ module: string; v: number | string | null }>(
    'SELECT module, MAX(version) AS v FROM canonry_migrations GROUP BY module ORDER BY module',
  );
  for (const { module, v } of rows) {
    const known = sets[module];
    const recorded = Number(v ?? 0);
    if (known === undefined || recorded <= known.length) continue;
    throw new CanonryError(
      'SCHEMA_TOO_NEW',
      `${name} was migrated by a newer canonry: its ${module} schema is at version ${recorded}, and this canonry knows ${known.length}; run that canonry version or a later one (nothing was changed)`,
      { module, recorded, known: known.length },
    );
  }
}

/** The schema version recorded for a module (0 before any of its migrations). */
export async function schemaVersion(store: Store, module: string): Promise<number> {
  const rows = await store.all<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM canonry_migrations WHERE module = $1',
    [module],
  );
  return Number(rows[0]?.v ?? 0);
}
