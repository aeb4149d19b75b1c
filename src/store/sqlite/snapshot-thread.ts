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
 * {@link snapshotSqlite}'s `VACUUM INTO` on a worker thread, so the calling thread stays free (to
 * handle a signal while a large database is copied); settles when the copy is written, or fails,
 * typed the same way. A caller that stops waiting leaves the thread to end when the statement
 * returns (the process waits for it before it exits): VACUUM INTO cannot be cut short from outside,
 * and terminating the thread while SQLite runs aborts the process when it returns.
 */
export function snapshotSqliteOffThread(source: string, target: string): Promise<void> {
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
