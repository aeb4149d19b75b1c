import { CanonryError } from '../../core/index.js';
import { sqliteDriver } from '../drivers.js';
import { sqliteFileFailure } from './snapshot.js';

/** A SQLite database file no other connection has open, held so until `release`. */
export interface ExclusiveSqlite {
  /**
   * Folds the WAL into the database file and leaves WAL mode (`wal_checkpoint(TRUNCATE)`, then
   * `journal_mode = DELETE`, which deletes the -wal file): the file alone is then the whole database,
   * safe to set aside under another name. Still held afterwards.
   */
  seal(): void;
  /** Closes the connection and with it the lock; it deletes no file once sealed. */
  release(): void;
}

/**
 * Takes SQLite's exclusive lock on the database file `path` at once, or refuses with STORE_IN_USE.
 *
 * How "in use" is told: in WAL mode every connection holds a shared lock on the database file for as
 * long as it is open — also between transactions, also a `canonry serve` that is idle — so a
 * connection in `locking_mode = EXCLUSIVE` gets its `BEGIN EXCLUSIVE` only when no other connection,
 * of any process, has the file open. (A `BEGIN IMMEDIATE` probe only sees a writer in the middle of
 * a transaction: an idle server holds no write lock and would pass it.) The lock is kept after the
 * transaction ends (exclusive locking mode), so nothing can open the database until `release`: a
 * `canonry serve` started meanwhile waits, then refuses with STORE_BUSY.
 */
export function holdSqliteExclusive(path: string): ExclusiveSqlite {
  const Database = sqliteDriver();
  let db: InstanceType<typeof Database>;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 0 });
  } catch (err) {
    throw sqliteFileFailure(err, path);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    const code = (err as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    ) {
      throw new CanonryError(
        'STORE_IN_USE',
        `the database ${path} is open in another process (canonry serve, or another command): stop it, then run this again`,
        { path },
        { cause: err },
      );
    }
    throw sqliteFileFailure(err, path);
  }
  let open = true;
  return {
    seal() {
      try {
        const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        if (checkpoint !== undefined && checkpoint.busy !== 0) {
          throw new CanonryError('STORE_BUSY', `the WAL of ${path} could not be checkpointed`, {
            path,
          });
        }
        const mode = db.pragma('journal_mode = DELETE', { simple: true });
        if (mode !== 'delete') {
          throw new CanonryError(
            'STORE_BUSY',
            `${path} could not leave WAL mode (${String(mode)})`,
            {
              path,
            },
          );
        }
      } catch (err) {
        throw sqliteFileFailure(err, path);
      }
    },
    release() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
