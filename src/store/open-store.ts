import { join } from 'node:path';
import { CanonryError } from '../core/index.js';
import { type MigrationSets, migrate } from './migrations.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/** The SQLite file used when no database is named: `<dataDir>/canonry.db`. */
export function defaultDatabasePath(dataDir: string): string {
  return join(dataDir, 'canonry.db');
}

/**
 * Opens the store a URL names and brings each module's schema up to date: `postgres://…` or
 * `postgresql://…` for PostgreSQL, `sqlite:<path>` or a plain path for SQLite, and nothing for the
 * embedded default in the data directory.
 */
export async function openStore(
  url: string | undefined,
  dataDir: string,
  migrations: MigrationSets,
): Promise<Store> {
  const store = createStore(url, dataDir);
  try {
    await migrate(store, migrations);
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  return store;
}

/**
 * Which engine a database setting names: PostgreSQL for `postgres://` (or `postgresql://`), else
 * SQLite (`sqlite:<path>`, a file path, or none). INVALID_ARGUMENT for a URL of another scheme,
 * checked before anything is opened or written.
 */
export function databaseEngine(url: string | undefined): 'postgres' | 'sqlite' {
  if (url === undefined || url === '') return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'the database must be postgres://…, sqlite:<path> or a file path',
    );
  }
  return 'sqlite';
}

/** The SQLite file a database setting opens; undefined when it names PostgreSQL. */
export function sqliteDatabaseFile(url: string | undefined, dataDir: string): string | undefined {
  if (databaseEngine(url) === 'postgres') return undefined;
  if (url === undefined || url === '') return defaultDatabasePath(dataDir);
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length) || defaultDatabasePath(dataDir);
  return url;
}

function createStore(url: string | undefined, dataDir: string): Store {
  const file = sqliteDatabaseFile(url, dataDir);
  return file === undefined ? new PostgresStore({ connectionString: url! }) : new SqliteStore(file);
}
