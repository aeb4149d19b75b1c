import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CanonryError } from '../core/index.js';
import {
  redactDatabaseUrl,
  refuseIrregularDatabaseFile,
  sqliteDatabaseFile,
} from '../store/index.js';
import { STORE_FILE, type StoreRecord } from './store-binding.js';

/**
 * Checks the SQLite file a runtime will open before anything is created (keys, the data directory,
 * the file): a FIFO, device or directory in its place is refused (opening it would wait for ever),
 * and so is a missing database for a bound data directory (below).
 */
export function checkDatabaseBeforeOpening(
  dataDir: string,
  db: string | undefined,
  recorded: StoreRecord | undefined,
): void {
  const file = sqliteDatabaseFile(db, dataDir);
  if (file !== undefined) refuseIrregularDatabaseFile(file);
  refuseNewDatabaseForBoundDirectory(dataDir, db, recorded);
}

/**
 * Refuses, before any file is created, to open a SQLite database that does not exist (or is empty)
 * for a data directory already bound to a database: a new database is never the store `store.json`
 * names, so the start would make an empty file and then fail with STORE_MISMATCH. The directory's
 * own file gone is STORE_UNAVAILABLE (restore it); a directory bound elsewhere (PostgreSQL, another
 * file) and run without naming it is STORE_MISMATCH, naming the database to pass with `--db`.
 */
function refuseNewDatabaseForBoundDirectory(
  dataDir: string,
  db: string | undefined,
  recorded: StoreRecord | undefined,
): void {
  const file = sqliteDatabaseFile(db, dataDir);
  if (file === undefined || holdsDatabase(file) || recorded === undefined) return;
  const storeId = String(recorded.store_id);
  const bound = typeof recorded.database === 'string' ? shown(recorded.database) : undefined;
  if (bound === undefined || bound === `sqlite:${resolve(file)}` || bound === `sqlite:${file}`) {
    throw new CanonryError(
      'STORE_UNAVAILABLE',
      `the database ${file} is missing (or empty), but ${dataDir} is bound to it (${STORE_FILE}, store ${storeId}): restore it from its backup (canonry restore --data ${dataDir} --from BACKUP); a new, empty database would not be that store`,
      { path: file, store_id: storeId },
    );
  }
  throw new CanonryError(
    'STORE_MISMATCH',
    `${dataDir} is bound to the database ${bound} (${STORE_FILE}), not to ${file}, which does not exist: pass that database with --db or CANONRY_DB`,
    { data_store: storeId, database: bound },
  );
}

/** Whether a SQLite file holds anything: present, and not empty (an empty file beside a WAL still does). */
function holdsDatabase(file: string): boolean {
  const size = (path: string): number => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  try {
    if (!statSync(file).isFile()) return true; // not a database file at all: the store refuses it
  } catch {
    return false;
  }
  return size(file) > 0 || size(`${file}-wal`) > 0;
}

/** A recorded URL is written without its password; one edited in by hand is never echoed. */
function shown(database: string): string {
  return /^postgres(ql)?:\/\//.test(database) ? redactDatabaseUrl(database) : database;
}
