import { closeSync, fsyncSync, openSync } from 'node:fs';
import { CanonryError } from '../../core/index.js';
import { sqliteDriver } from '../drivers.js';
import { sqliteCode, sqliteFailure } from './sqlite-failure.js';

/** How long the snapshot waits for a lock another connection holds (as the store's connections do). */
export const SNAPSHOT_BUSY_TIMEOUT_MS = 30_000;

/**
 * A SQLite failure of one of these file operations, typed as the store types any ({@link
 * sqliteFailure}: a full disk STORE_FULL, a damaged file STORE_CORRUPT, a lock held past the timeout
 * STORE_BUSY, a file that fails STORE_UNAVAILABLE), naming `path` — except that a file that is no
 * database is INVALID_BACKUP here (these operations read backups), and any other code SQLite
 * reports is STORE_UNAVAILABLE too.
 */
export function sqliteFileFailure(err: unknown, path: string): unknown {
  const code = sqliteCode(err);
  if (code === 'SQLITE_NOTADB') {
    return new CanonryError(
      'INVALID_BACKUP',
      `${path} is not a SQLite database`,
      { path },
      { cause: err },
    );
  }
  const typed = sqliteFailure(err, path);
  if (typed !== undefined || code === undefined) return typed ?? err;
  return new CanonryError(
    'STORE_UNAVAILABLE',
    `cannot use ${path} (${code})`,
    { path, sqlite: code },
    { cause: err },
  );
}

/** fsync of a file or a directory (a directory's entries: a rename in it is durable once synced). */
export function syncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * What `PRAGMA integrity_check` finds wrong with the database file at `path` (an empty list: nothing),
 * read without writing to it; failures name the file `name` (what the operator called it). A file that is no database is INVALID_BACKUP; one too damaged to read,
 * STORE_CORRUPT.
 */
export function sqliteIntegrityProblems(path: string, name = path): string[] {
  const Database = sqliteDriver();
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
    return rows.filter((row) => row !== 'ok');
  } catch (err) {
    throw sqliteFileFailure(err, name);
  } finally {
    db?.close();
  }
}
