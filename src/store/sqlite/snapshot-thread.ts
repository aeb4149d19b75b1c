import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteDriver } from '../drivers.js';
import { SNAPSHOT_BUSY_TIMEOUT_MS, sqliteFileFailure } from './snapshot.js';

/** What the thread tells: done, or the failure (its message and SQLite code). */
type Outcome = { ok: true } | { ok: false; message: string; code?: string };

/**
 * The thread's whole program: one read-only connection, one VACUUM INTO. Evaluated as a script (no
 * file of its own), so it runs the same from the sources and from the build.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.source, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
  db.prepare('VACUUM INTO ?').run(workerData.target);
  parentPort.postMessage({ ok: true });
} catch (err) {
  parentPort.postMessage({ ok: false, message: String(err && err.message), code: err && err.code });
} finally {
  if (db) db.close();
}
`;

/**
 * Writes a consistent copy of the SQLite database `source` into `target` (which must not exist or be
 * empty; create it 0600 first to choose its mode) with `VACUUM INTO`, on a worker thread, so the
 * calling thread stays free (to handle a signal while a large database is copied); settles when the
 * copy is written, or fails, typed as the store types a file's failures. SQLite does not fsync what
 * VACUUM INTO writes: the caller syncs it (`syncPath`) before relying on it.
 *
 * Why VACUUM INTO and not the online backup API: VACUUM INTO is one statement in one read
 * transaction, so in WAL mode it copies the snapshot it began with while other processes go on
 * committing, and nothing they write makes it start over. The backup API copies pages in steps, and a
 * write to the source by any other connection resets it to the first page (sqlite3_backup_step's
 * documentation): against a busy `canonry serve` it may never finish. The copy is also vacuumed
 * (no free pages, no traces of deleted rows) and in rollback-journal mode: one self-contained file.
 * The source is opened read-only: the backup never writes the live database.
 *
 * A caller that stops waiting leaves the thread to end when the statement returns (the process
 * waits for it before it exits): VACUUM INTO cannot be cut short from outside, and terminating the
 * thread while SQLite runs aborts the process when it returns.
 */
export function snapshotSqlite(source: string, target: string): Promise<void> {
  sqliteDriver(); // STORE_UNAVAILABLE here, typed, when the driver is not installed
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(PROGRAM, {
    eval: true,
    workerData: { driver, source, target, busyTimeoutMs: SNAPSHOT_BUSY_TIMEOUT_MS },
  });
  return new Promise<void>((resolve, reject) => {
    let outcome: Outcome | undefined;
    worker.once('message', (message: Outcome) => {
      outcome = message;
    });
    worker.once('error', reject);
    worker.once('exit', () => {
      if (outcome?.ok) return resolve();
      const failure = Object.assign(new Error(outcome?.message ?? 'the snapshot thread ended'), {
        code: outcome?.ok === false ? outcome.code : undefined,
      });
      reject(sqliteFileFailure(failure, source));
    });
  });
}
