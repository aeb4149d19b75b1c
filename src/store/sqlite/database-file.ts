import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CanonryError, errnoCause, errnoOf, isNoSpace, makeDirectory } from '../../core/index.js';

/**
 * A file-system failure to create or open the database file, typed: no space is STORE_FULL, anything
 * else with an errno STORE_UNAVAILABLE (the database cannot be reached), naming the file and the
 * errno (`details.errno`). Anything else is returned as it is.
 */
export function databaseFileFailure(error: unknown, path: string): unknown {
  const code = errnoOf(error);
  if (code === undefined) return error;
  const cause = errnoCause(code) ?? 'the file system refused it';
  return new CanonryError(
    isNoSpace(code) ? 'STORE_FULL' : 'STORE_UNAVAILABLE',
    `cannot create or open the database ${path}: ${cause} (${code})`,
    { errno: code },
    { cause: error },
  );
}

/**
 * The database and its WAL and shared-memory files hold every journal entry and token hash: they are
 * created 0600 in a 0700 directory, like the keys. SQLite gives the -wal and -shm files the mode of
 * the database file, so creating that one first (or narrowing a wider one left by an older version)
 * is enough; the companions are narrowed too in case they already exist.
 *
 * An existing file this process may not write (a read-only mount, another owner) is left to SQLite,
 * which opens it read-only where it can (reads work, writes are STORE_UNAVAILABLE): the refusal is
 * returned, to be reported if SQLite cannot open the file either. Anything else that fails is thrown,
 * typed ({@link databaseFileFailure}).
 */
export function privateFiles(path: string): unknown {
  refuseIrregularDatabaseFile(path);
  let refused: unknown;
  try {
    const dir = dirname(path);
    if (!existsSync(dir)) makeDirectory(dir);
    closeSync(openSync(path, 'a', 0o600));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const readOnly = code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
    if (!readOnly || !existsSync(path)) throw databaseFileFailure(error, path);
    refused = error;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch {
      // not there yet: SQLite creates it with the database file's mode
    }
  }
  return refused;
}

/**
 * A FIFO, socket, device or directory where the database should be is refused before it is opened:
 * opening a FIFO to write waits for a reader for ever, and none of them holds a database.
 */
export function refuseIrregularDatabaseFile(path: string): void {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch {
    return; // not there (created next), or a refusal the open below reports
  }
  if (stats.isFile()) return;
  const kind = stats.isFIFO()
    ? 'a FIFO'
    : stats.isDirectory()
      ? 'a directory'
      : stats.isSocket()
        ? 'a socket'
        : 'a device';
  throw new CanonryError(
    'STORE_UNAVAILABLE',
    `the database ${path} is ${kind}, not a regular file: name a database file (--db, CANONRY_DB) or remove it`,
    { path },
  );
}
