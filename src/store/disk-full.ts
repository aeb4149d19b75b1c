import { CanonryError } from '../core/index.js';

/**
 * Whether a write failed for want of space: SQLite's SQLITE_FULL (the database or its WAL could not
 * grow: ENOSPC, or `max_page_count`) or PostgreSQL's SQLSTATE 53100 (disk_full). SQLite reports
 * ENOSPC on a write as SQLITE_FULL; its other I/O errors carry no errno, so they are not read as one.
 */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100';
}

/** A full disk as callers see it: STORE_FULL (507); the failed write was rolled back whole. */
export function storeFull(cause: unknown): CanonryError {
  return new CanonryError(
    'STORE_FULL',
    'the database cannot grow: its disk is full; nothing of the write was kept, free space and retry',
    undefined,
    { cause },
  );
}
