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

function createStore(url: string | undefined, dataDir: string): Store {
  if (url === undefined || url === '') return new SqliteStore(defaultDatabasePath(dataDir));
  if (/^postgres(ql)?:\/\//.test(url)) return new PostgresStore({ connectionString: url });
  if (url.startsWith('sqlite:'))
    return new SqliteStore(url.slice('sqlite:'.length) || defaultDatabasePath(dataDir));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'the database must be postgres://…, sqlite:<path> or a file path',
    );
  }
  return new SqliteStore(url);
}
