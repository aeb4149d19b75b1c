import { CanonryError } from '../../core/index.js';
import { isDiskFull, storeFull } from '../disk-full.js';

/** SQLite's result code of a driver error (`SQLITE_IOERR_WRITE`, …), or of the error it wraps. */
export function sqliteCode(err: unknown): string | undefined {
  for (let at = err, depth = 0; at !== null && typeof at === 'object' && depth < 3; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The family of an extended code: `SQLITE_IOERR_FSYNC` → `SQLITE_IOERR`. */
function family(code: string): string {
  const second = code.indexOf('_', 'SQLITE_'.length);
  return second === -1 ? code : code.slice(0, second);
}

interface Condition {
  readonly code: 'STORE_UNAVAILABLE' | 'STORE_CORRUPT';
  /** What is wrong with the file and what to do, after "the database". */
  readonly says: string;
}

/**
 * What an operator must do about each condition of the file, by family. The database cannot be used
 * now but is not the caller's fault, and retrying may succeed once it is dealt with:
 * STORE_UNAVAILABLE (503). A damaged file is not: retrying will fail the same way, STORE_CORRUPT.
 */
const CONDITIONS: Readonly<Record<string, Condition>> = {
  SQLITE_IOERR: {
    code: 'STORE_UNAVAILABLE',
    says: 'could not be read or written: the disk under it failed; check the disk',
  },
  SQLITE_CANTOPEN: {
    code: 'STORE_UNAVAILABLE',
    says: 'cannot be opened (it, its folder, or its -wal or -shm file is missing, unreadable or not writable)',
  },
  SQLITE_READONLY: {
    code: 'STORE_UNAVAILABLE',
    says: 'is read-only here (a read-only mount, a file that is not writable, or one replaced under canonry); make it writable',
  },
  SQLITE_PERM: {
    code: 'STORE_UNAVAILABLE',
    says: 'may not be accessed as asked (permission denied)',
  },
  SQLITE_NOLFS: {
    code: 'STORE_UNAVAILABLE',
    says: 'has grown past what its file system can hold',
  },
  SQLITE_CORRUPT: {
    code: 'STORE_CORRUPT',
    says: 'is damaged: retrying will not help; restore it from a backup',
  },
  SQLITE_NOTADB: {
    code: 'STORE_CORRUPT',
    says: 'is not a SQLite database (or its header is damaged): retrying will not help; restore it from a backup',
  },
};

/**
 * SQLite's failures as callers see them, or undefined for any other error (a bug, or a constraint
 * the caller reads itself): a full disk is STORE_FULL, a lock held past the timeout STORE_BUSY, and
 * a file SQLite cannot use (I/O errors, cannot open, read-only) STORE_UNAVAILABLE or, damaged or not
 * a database, STORE_CORRUPT, with the code in `details.sqlite`. The message names `file` when given
 * (opening, for the operator); failures of statements do not, so no server path reaches a client.
 */
export function sqliteFailure(err: unknown, file?: string): CanonryError | undefined {
  if (isDiskFull(err)) return storeFull(err);
  const code = sqliteCode(err);
  if (code === undefined) return undefined;
  const kind = family(code);
  if (kind === 'SQLITE_BUSY' || kind === 'SQLITE_LOCKED') {
    return new CanonryError('STORE_BUSY', 'the database is locked by another writer', undefined, {
      cause: err,
    });
  }
  const condition = CONDITIONS[kind];
  if (condition === undefined) return undefined;
  const what = file === undefined ? 'the database' : `the database ${file}`;
  const kept = file === undefined ? '; nothing of the operation was kept' : '';
  return new CanonryError(
    condition.code,
    `${what} ${condition.says} (${code})${kept}`,
    { sqlite: code },
    { cause: err },
  );
}

/**
 * Whether a failure inside a transaction ends it: a full disk and the conditions above. SQLite rolls
 * some back by itself and keeps others open (a damaged page read); either way nothing of the
 * transaction may be kept, so every later statement and the COMMIT fail with it.
 */
export function endsTransaction(err: unknown): boolean {
  const code = sqliteCode(err);
  if (code === undefined) return false;
  const kind = family(code);
  return kind === 'SQLITE_FULL' || CONDITIONS[kind] !== undefined;
}
