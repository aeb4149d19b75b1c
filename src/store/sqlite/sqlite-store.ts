import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { CanonryError, LruCache } from '../../core/index.js';
import { sqliteDriver } from '../drivers.js';
import type {
  BackgroundWriter,
  Capabilities,
  Queryable,
  Row,
  SqlValue,
  Store,
  TransactionOptions,
} from '../types.js';
import { SqliteBackgroundWriter } from './background-writer.js';
import { databaseFileFailure, privateFiles } from './database-file.js';
import { type PositionalSql, toPositional } from './placeholders.js';
import { endsTransaction, sqliteFailure } from './sqlite-failure.js';

/** The few driver methods canonry calls, so the rest of the code never sees driver types. */
interface Statement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
  /** Rows as arrays of column values (only on statements that return data). */
  raw(toggle: boolean): Statement;
}
interface Connection {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(sql: string): unknown;
  close(): void;
  /** False once a transaction ended, also when SQLite rolled it back itself. */
  readonly inTransaction: boolean;
}

/** The parameters in positional order; `$1…$n` used once each, in order, need no reordering. */
function bind(order: readonly number[], params: readonly SqlValue[]): readonly SqlValue[] {
  return (order as PositionalOrder).identity && params.length === order.length
    ? params
    : order.map((i) => params[i] as SqlValue);
}

type PositionalOrder = readonly number[] & { identity?: boolean };

/** A cached statement; `arrays` is its twin returning rows as arrays, prepared on first use. */
interface Prepared {
  /** The text as SQLite takes it (`?` placeholders). */
  readonly sql: string;
  readonly statement: Statement;
  readonly order: readonly number[];
  arrays?: Statement;
}

/** What a SQLite store can do (also its read-only form's). */
export const SQLITE_CAPABILITIES: Capabilities = {
  dialect: 'sqlite',
  singleWriter: true,
  rowLocks: false,
  shared: false,
  dataModifyingCte: false,
};

/**
 * Prepared statements a connection keeps, at most (the least recently used is dropped, and SQLite
 * frees it once nothing runs it). A list's statement has a text per row count (`pieces`, up to 500
 * rows), and one of 500 rows of a dozen columns holds ~0.6 MB of SQLite's memory: kept per count
 * and per statement, what a stream of batches of every size left behind would run to hundreds of MB.
 */
export const STATEMENT_CACHE_SIZE = 256;

/** How long a writer waits for another process's write lock before giving up. */
const BUSY_TIMEOUT_MS = 30_000;

/** Options of a {@link SqliteStore}; they apply when this process first opens the file. */
export interface SqliteOptions {
  /**
   * The most pages (4 KiB each by default) the database may grow to, on every connection to it
   * (`PRAGMA max_page_count`): past it a write is `STORE_FULL`, as on a full disk. A cap on the
   * file's growth for an operator; the tests' deterministic full disk.
   */
  readonly maxPageCount?: number;
}

/** One open file shared by every store on it in this process, with its operation queue. */
interface Shared {
  readonly db: Connection;
  readonly statements: LruCache<string, Prepared>;
  queue: Promise<unknown>;
  users: number;
  /** The file's background writer (none for an in-memory database, which one connection owns). */
  readonly background: SqliteBackgroundWriter | undefined;
}

/**
 * Stores on the same file in one process share one connection and one queue. Two connections would
 * deadlock: the driver waits for a lock synchronously, blocking the very event loop that would let
 * the other connection's transaction finish.
 */
const SHARED = new Map<string, Shared>();

function acquire(path: string, options: SqliteOptions): { key: string; shared: Shared } {
  const key = path === ':memory:' ? `:memory:${SHARED.size}:${Math.random()}` : resolvePath(path);
  let shared = SHARED.get(key);
  if (!shared) {
    const db = connect(path, key, options);
    const background =
      path === ':memory:'
        ? undefined
        : new SqliteBackgroundWriter(key, BUSY_TIMEOUT_MS, options.maxPageCount);
    shared = {
      db,
      statements: new LruCache(STATEMENT_CACHE_SIZE),
      queue: Promise.resolve(),
      users: 0,
      background,
    };
    SHARED.set(key, shared);
  }
  shared.users++;
  return { key, shared };
}

/** The inode of the file at `path` now (0 when there is none). */
function inodeOf(path: string): number {
  try {
    return statSync(path).ino;
  } catch {
    return 0;
  }
}

/**
 * Opens the file with canonry's pragmas. A file SQLite cannot use is a typed error naming it (see
 * {@link sqliteFailure}; a refusal of the file system first, when it is why), never a driver error.
 */
function connect(path: string, key: string, options: SqliteOptions): Connection {
  const refused = path === ':memory:' ? undefined : privateFiles(key);
  let db: Connection | undefined;
  try {
    const Database = sqliteDriver();
    for (let attempt = 1; ; attempt++) {
      const opened = path === ':memory:' ? undefined : inodeOf(key);
      db = new Database(path) as unknown as Connection;
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      // A read waits out an exclusive lock: `canonry restore` holds one on the old file while it
      // swaps the restored copy in. The file this connection opened is then the one set aside,
      // which SQLite refuses to write (SQLITE_READONLY_DBMOVED): it opens the path again.
      db.pragma('schema_version');
      if (opened === undefined || inodeOf(key) === opened || attempt === 3) break;
      db.close();
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    if (options.maxPageCount !== undefined) {
      db.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxPageCount))}`);
    }
    return db;
  } catch (err) {
    try {
      db?.close();
    } catch {}
    const failure = sqliteFailure(err, key);
    // Read-only or not permitted: the file system's refusal says why better than SQLite's code.
    if (refused !== undefined && failure?.code === 'STORE_UNAVAILABLE') {
      throw databaseFileFailure(refused, key);
    }
    throw failure ?? err;
  }
}

/**
 * The embedded default: one SQLite file in WAL mode with `synchronous=FULL`, so an acknowledged commit
 * survives power loss. Several processes may share the file; `BEGIN IMMEDIATE` makes writers queue.
 * Within a process every operation is serialised, so a transaction never sees another's statements.
 */
export class SqliteStore implements Store {
  readonly capabilities = SQLITE_CAPABILITIES;
  readonly description: string;
  readonly #key: string;
  readonly #shared: Shared;
  readonly #db: Connection;
  readonly #statements: Shared['statements'];
  #closed = false;
  /** Plain batches committed on a thread of their own (see {@link SqliteBackgroundWriter}). */
  readonly background: BackgroundWriter | undefined;

  constructor(path: string, options: SqliteOptions = {}) {
    this.description = `sqlite:${path}`;
    const { key, shared } = acquire(path, options);
    this.#key = key;
    this.#shared = shared;
    this.#db = this.#shared.db;
    this.#statements = this.#shared.statements;
    this.background = this.#shared.background;
  }

  /** Prepared statements the connection keeps now, at most {@link STATEMENT_CACHE_SIZE}. */
  get cachedStatements(): number {
    return this.#statements.size;
  }

  all<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.#serial(() => this.#read<T>(sql, params, false));
  }

  values<T extends readonly unknown[] = unknown[]>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<T[]> {
    return this.#serial(() => this.#read<T>(sql, params, true));
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return this.#serialWrite(() => this.#run(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.#serialWrite(() => this.#exec(sql));
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    return this.#serialWrite(async () => {
      // A ROLLBACK that failed (the disk) left the last one open: it is ended before this begins.
      if (this.#db.inTransaction) this.#exec('ROLLBACK');
      this.#exec('BEGIN IMMEDIATE');
      // The failure that ended this transaction: SQLite rolled it back itself (it does on
      // SQLITE_FULL and some I/O errors), or it was a failure of the file (`endsTransaction`: a
      // damaged page, an I/O error) after which SQLite keeps it open. Every later statement of
      // `work` fails with it, and so does the COMMIT: run on, they would be autocommitted one by
      // one, or committed around the failed one — half a transaction kept, even if `work` caught
      // the failure (as a typed refusal of one job) and carried on. (SQLite's pager refuses
      // statements after most such failures too; this does not count on it.)
      let ended: unknown;
      const statement = <R>(run: () => R): R => {
        if (ended !== undefined) throw ended;
        try {
          return run();
        } catch (err) {
          if (!this.#db.inTransaction || endsTransaction(err)) ended = err;
          throw err;
        }
      };
      const tx: Queryable = {
        all: async <R extends object>(sql: string, params: readonly SqlValue[] = []) =>
          statement(() => this.#read<R>(sql, params, false)),
        values: async <R extends readonly unknown[]>(
          sql: string,
          params: readonly SqlValue[] = [],
        ) => statement(() => this.#read<R>(sql, params, true)),
        run: async (sql, params = []) => statement(() => this.#run(sql, params)),
        exec: async (sql) => statement(() => this.#exec(sql)),
      };
      try {
        const result = await work(tx);
        statement(() => this.#exec('COMMIT'));
        return result;
      } catch (err) {
        // SQLite may already have rolled back (e.g. on SQLITE_FULL); the original error matters.
        // A ROLLBACK that fails leaves the transaction open; the next one ends it first.
        try {
          if (this.#db.inTransaction) this.#exec('ROLLBACK');
        } catch {}
        throw ended ?? err;
      }
    });
  }

  async close(): Promise<void> {
    await this.#serial(async () => {
      this.#closed = true;
      if (--this.#shared.users === 0) {
        SHARED.delete(this.#key);
        await this.#shared.background?.close();
        this.#db.close();
      }
    });
  }

  /**
   * A write on this connection first waits for the batches already sent to the background writer:
   * the thread holds the write lock meanwhile, and waiting here is asynchronous where the driver's
   * own wait (busy_timeout) would block the event loop.
   */
  #serialWrite<T>(task: () => T | Promise<T>): Promise<T> {
    const background = this.#shared.background;
    if (!background) return this.#serial(task);
    return this.#serial(async () => {
      await background.sent();
      return task();
    });
  }

  #serial<T>(task: () => T | Promise<T>): Promise<T> {
    const run = this.#shared.queue.then(() => {
      if (this.#closed) throw new CanonryError('STORE_UNAVAILABLE', 'the store is closed');
      return task();
    });
    this.#shared.queue = run.catch(() => undefined);
    return run;
  }

  #prepare(sql: string): Prepared {
    let cached = this.#statements.get(sql);
    if (!cached) {
      const positional: PositionalSql = toPositional(sql);
      const order: PositionalOrder = Object.assign([...positional.order], {
        identity: positional.order.every((p, i) => p === i),
      });
      cached = {
        sql: positional.sql,
        statement: this.#guard(() => this.#db.prepare(positional.sql)),
        order,
      };
      this.#statements.set(sql, cached);
    }
    return cached;
  }

  /** Rows as objects, or with `arrays` as arrays of column values; a statement without rows runs. */
  #read<T>(sql: string, params: readonly SqlValue[], arrays: boolean): T[] {
    const prepared = this.#prepare(sql);
    const args = bind(prepared.order, params);
    return this.#guard(() => {
      if (!prepared.statement.reader) {
        prepared.statement.run(...args);
        return [];
      }
      if (!arrays) return prepared.statement.all(...args) as T[];
      prepared.arrays ??= this.#db.prepare(prepared.sql).raw(true);
      return prepared.arrays.all(...args) as T[];
    });
  }

  #run(sql: string, params: readonly SqlValue[]): number {
    const { statement, order } = this.#prepare(sql);
    return this.#guard(() => statement.run(...bind(order, params)).changes);
  }

  #exec(sql: string): void {
    this.#guard(() => this.#db.exec(sql));
  }

  /**
   * The expected failures, typed ({@link sqliteFailure}): SQLITE_BUSY after the timeout is
   * STORE_BUSY, a full disk STORE_FULL, a file SQLite cannot use STORE_UNAVAILABLE or STORE_CORRUPT.
   */
  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      throw sqliteFailure(err) ?? err;
    }
  }
}
