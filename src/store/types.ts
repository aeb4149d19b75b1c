/** A value bound to a statement parameter. */
export type SqlValue = string | number | null;

/** A row as the driver returns it. */
export type Row = Record<string, unknown>;

/**
 * What an engine can do; the journal reads these values instead of branching on the engine's name.
 */
export interface Capabilities {
  readonly dialect: 'sqlite' | 'postgres';
  /** One writer at a time for the whole database (SQLite): row locks add nothing. */
  readonly singleWriter: boolean;
  /** `SELECT … FOR UPDATE` locks the selected rows until the transaction ends. */
  readonly rowLocks: boolean;
  /** Many processes may share the database over the network. */
  readonly shared: boolean;
  /** `WITH x AS (UPDATE … RETURNING …) INSERT … SELECT … FROM x` runs as one atomic statement. */
  readonly dataModifyingCte: boolean;
}

/** Runs statements. SQL uses `$1, $2, …` placeholders on every engine. */
export interface Queryable {
  /** Every row the statement returns. */
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs several `;`-separated statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
}

/** Options for one transaction. */
export interface TransactionOptions {
  /** Serialise against every other exclusive transaction on the database (migrations). */
  readonly exclusive?: boolean;
}

/** A database: statements outside transactions, transactions, and its capabilities. */
export interface Store extends Queryable {
  readonly capabilities: Capabilities;
  /** A short description for logs (`sqlite:/path`, `postgres://host/db`), never with a password. */
  readonly description: string;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Transient
   * conflicts from the engine (serialisation failures, deadlocks) are retried a few times.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
