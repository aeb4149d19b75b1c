import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CanonryError, LruCache } from '../../core/index.js';
import type { BackgroundWriter, BatchStatement, SqlValue } from '../types.js';
import { toPositional } from './placeholders.js';
import { sqliteFailure } from './sqlite-failure.js';

/** A batch as the thread receives it: positional SQL and parameters already in binding order. */
interface WireStatement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly expect: number | null;
}

type Reply =
  | { readonly id: number; readonly committed: boolean }
  | { readonly id: number; readonly error: { readonly message: string; readonly code?: string } };

/**
 * The thread's program. It is evaluated source rather than a module file so that the same code runs
 * from the compiled package and from the TypeScript sources under the test runner; it only opens
 * its own connection (the pragmas of SqliteStore) and commits what it is sent, in order.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
if (workerData.maxPageCount !== undefined) db.pragma('max_page_count = ' + Math.max(1, Math.floor(workerData.maxPageCount)));
// The connection's prepared statements, the least recently used dropped past the bound (a Map
// keeps insertion order: a hit moves its text to the end).
const statements = new Map();
const prepare = (sql) => {
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    if (statements.size >= workerData.statementCacheSize) statements.delete(statements.keys().next().value);
  } else statements.delete(sql);
  statements.set(sql, statement);
  return statement;
};
const REFUSED = Symbol('refused');
const commit = db.transaction((batch) => {
  for (const { sql, params, expect } of batch) {
    const { changes } = prepare(sql).run(params);
    if (expect !== null && changes !== expect) throw REFUSED;
  }
}).immediate;
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    commit(message.batch);
    parentPort.postMessage({ id: message.id, committed: true });
  } catch (err) {
    if (err === REFUSED) parentPort.postMessage({ id: message.id, committed: false });
    else parentPort.postMessage({ id: message.id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
`;

/**
 * Statements the thread's connection keeps prepared, and positional forms kept here, at most: as on
 * the main connection (`STATEMENT_CACHE_SIZE`), a list's statement has a text per row count.
 */
export const BACKGROUND_STATEMENT_CACHE_SIZE = 256;

/** A statement's positional form; `inOrder` when its parameters bind as given (`$1, $2, …` once each). */
const positional = new LruCache<
  string,
  { sql: string; order: readonly number[]; inOrder: boolean }
>(BACKGROUND_STATEMENT_CACHE_SIZE);

/** Positional forms kept now (tests). */
export const positionalFormsKept = (): number => positional.size;

function toWire({ sql, params, expectChanges }: BatchStatement): WireStatement {
  let found = positional.get(sql);
  if (found === undefined) {
    const { sql: text, order } = toPositional(sql);
    found = { sql: text, order, inOrder: order.every((p, i) => p === i) };
    positional.set(sql, found);
  }
  // A batch's multi-row INSERTs bind thousands of values in order: sent as they are, not copied.
  const inOrder = found.inOrder && params.length === found.order.length;
  return {
    sql: found.sql,
    params: inOrder ? params : found.order.map((i) => params[i] ?? null),
    expect: expectChanges ?? null,
  };
}

/**
 * SQLite's background writer: a worker thread with a connection of its own to the same file. The
 * driver is synchronous, so on the event loop a COMMIT's fsync stops everything; here the event loop
 * prepares the next batch meanwhile. The thread starts on first use and stops with {@link close}.
 * Both connections take SQLite's write lock, so they never write at once; `sent` lets the main
 * connection wait for batches in flight instead of blocking the event loop on the lock.
 */
export class SqliteBackgroundWriter implements BackgroundWriter {
  #worker: Worker | undefined;
  /** Why the last thread died mid-batch, until {@link #retryAt}; then a new thread is started. */
  #broken: Error | undefined;
  #retryAt = 0;
  /** Deaths mid-batch since the last batch a thread answered; the pause before a restart doubles. */
  #deaths = 0;
  #nextId = 0;
  readonly #waiting = new Map<
    number,
    { resolve: (committed: boolean) => void; reject: (err: unknown) => void }
  >();
  /** Settles with the last batch sent: batches commit in order, so every earlier one is done too. */
  #last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly busyTimeoutMs: number,
    /** `SqliteOptions.maxPageCount`, for the thread's connection too (the pragma is per connection). */
    private readonly maxPageCount?: number,
  ) {}

  commit(statements: readonly BatchStatement[]): Promise<boolean> {
    if (this.#broken && Date.now() < this.#retryAt) {
      return Promise.reject(
        new CanonryError('STORE_UNAVAILABLE', 'the background writer stopped', undefined, {
          cause: this.#broken,
        }),
      );
    }
    const worker = this.#start();
    const id = this.#nextId++;
    const committed = new Promise<boolean>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, batch: statements.map(toWire) });
    });
    this.#last = committed.catch(() => undefined);
    return committed;
  }

  /**
   * Resolves once every batch sent so far has settled. A barrier, not "nothing in flight": under a
   * steady stream of batches that moment might never come.
   */
  async sent(): Promise<void> {
    await this.#last;
  }

  /** Waits for the batches in flight, then closes the thread's connection. */
  async close(): Promise<void> {
    await this.#last;
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    const exited = new Promise<void>((done) => worker.once('exit', () => done()));
    // Unreferenced, the thread would let the process exit before `close` resolves.
    worker.ref();
    worker.postMessage('close');
    await exited;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        path: this.path,
        busyTimeoutMs: this.busyTimeoutMs,
        maxPageCount: this.maxPageCount,
        statementCacheSize: BACKGROUND_STATEMENT_CACHE_SIZE,
      },
    });
    // The thread must not keep a process alive on its own: batches in flight are awaited by callers.
    worker.unref();
    worker.on('message', (reply: Reply) => this.#reply(reply));
    // A thread that throws is stopped, and 'exit' always follows 'error': the batches in flight
    // fail only then, once its connection is closed and what it had not committed rolled back, so
    // a caller that reads the database to learn whether a batch committed reads the final answer.
    let error: Error | undefined;
    worker.on('error', (err) => {
      error ??= err;
    });
    worker.on('exit', (code) =>
      this.#died(worker, error ?? new Error(`the writer thread exited (${code})`)),
    );
    this.#worker = worker;
    this.#broken = undefined;
    return worker;
  }

  #reply(reply: Reply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    this.#deaths = 0;
    if ('committed' in reply) waiting.resolve(reply.committed);
    else waiting.reject(writeError(reply.error));
  }

  /**
   * A thread that ended is forgotten, so the next batch starts a new one; posting to it would wait
   * forever. Ending with batches in flight is a death: they fail with an unknown outcome (each may
   * or may not have committed), and batches are refused for a pause that doubles with each death in
   * a row (0.1 s up to 30 s) so a thread that cannot run is not restarted in a loop; callers fall
   * back to the main connection meanwhile. SQLite's atomic commit and the thread's own connection,
   * closed as the thread ends, leave nothing half-written or locked: by the time a batch fails here,
   * whether it committed can be read on any connection, and will not change.
   */
  #died(worker: Worker, err: Error): void {
    // An earlier thread's last event ('exit' after 'error', or after close): the batches waiting
    // now, if any, belong to its successor.
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    if (this.#waiting.size === 0) return;
    this.#broken = err;
    this.#retryAt = Date.now() + Math.min(30_000, 100 * 2 ** this.#deaths);
    this.#deaths++;
    const failure = new CanonryError(
      'STORE_UNAVAILABLE',
      'the background writer stopped',
      { outcome: 'unknown' },
      { cause: err },
    );
    for (const { reject } of this.#waiting.values()) reject(failure);
    this.#waiting.clear();
  }
}

function writeError(error: { message: string; code?: string }): Error {
  const raw = Object.assign(new Error(error.message), { code: error.code });
  // Rolled back whole, like any failed batch: its appends run again in transactions, where a disk
  // still full, or a file still failing, fails the same way (typed as on the main connection).
  return sqliteFailure(raw) ?? raw;
}
