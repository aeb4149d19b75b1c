import { CanonryError } from '../../core/index.js';
import { sqliteDriver } from '../drivers.js';
import type { Row, SqlValue, Store } from '../types.js';
import { toPositional } from './placeholders.js';
import { sqliteFileFailure } from './snapshot.js';
import { SQLITE_CAPABILITIES } from './sqlite-store.js';

/** The few driver methods this store calls. */
interface Statement {
  readonly reader: boolean;
  all(...params: SqlValue[]): unknown[];
  raw(toggle?: boolean): Statement;
}

interface Connection {
  prepare(sql: string): Statement;
  close(): void;
}

function readOnly(): never {
  throw new CanonryError('INTERNAL', 'this store reads a database file and never writes it');
}

/**
 * A SQLite file opened read-only, as a `Store` whose writes are refused: for checking a copy (a
 * backup, a file about to be restored) with the journal's own verification without changing a byte
 * of it. No migrations, no pragmas that write, no WAL made for a file in rollback-journal mode (what
 * `snapshotSqlite` writes). Its statements run on the calling thread, one at a time.
 */
export class ReadOnlySqliteStore implements Store {
  readonly capabilities = SQLITE_CAPABILITIES;
  readonly description: string;
  readonly #name: string;
  readonly #db: Connection;

  /** `name`: what failures call the file (what the operator named it); `path` by default. */
  constructor(path: string, name = path) {
    this.#name = name;
    this.description = `sqlite:${path} (read-only)`;
    try {
      const Database = sqliteDriver();
      this.#db = new Database(path, {
        readonly: true,
        fileMustExist: true,
      }) as unknown as Connection;
    } catch (err) {
      throw sqliteFileFailure(err, name);
    }
  }

  async all<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return this.#read<T>(sql, params, false);
  }

  async values<T extends readonly unknown[] = unknown[]>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<T[]> {
    return this.#read<T>(sql, params, true);
  }

  async run(): Promise<number> {
    return readOnly();
  }

  async exec(): Promise<void> {
    return readOnly();
  }

  async transaction<T>(): Promise<T> {
    return readOnly();
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  #read<T>(sql: string, params: readonly SqlValue[], arrays: boolean): T[] {
    const positional = toPositional(sql);
    const args = positional.order.map((i) => params[i] ?? null);
    try {
      const statement = this.#db.prepare(positional.sql);
      if (!statement.reader) readOnly();
      return (arrays ? statement.raw(true) : statement).all(...args) as T[];
    } catch (err) {
      throw sqliteFileFailure(err, this.#name);
    }
  }
}
