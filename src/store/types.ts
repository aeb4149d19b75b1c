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
  /**
   * Every row the statement returns as an array of its columns in select order: no object per row,
   * for scans that read many rows (rebuild, export).
   */
  values<T extends readonly unknown[] = unknown[]>(
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<T[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs several `;`-separated statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
  /**
   * Runs writes to different tables, none reading another's rows, as one statement (PostgreSQL's
   * data-modifying `WITH`: one round trip). Where absent, `runTogether` (store index) runs them one
   * by one; call that, never this directly.
   */
  runTogether?(writes: readonly Write[]): Promise<void>;
}

/** One write of `runTogether`. */
export interface Write {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

/** Options for one transaction. */
export interface TransactionOptions {
  /** Serialise against every other exclusive transaction on the database (migrations). */
  readonly exclusive?: boolean;
}

/** One write of a {@link BackgroundWriter} batch. */
export interface BatchStatement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  /** The batch is refused (rolled back, nothing written) unless this changes exactly so many rows. */
  readonly expectChanges?: number;
}

/**
 * Commits batches of writes on a thread of its own, one transaction per batch, in call order. The
 * caller's thread keeps working — preparing the next batch — while a batch waits for its fsync.
 */
export interface BackgroundWriter {
  /** Resolves true once the batch committed, false if an expectation refused it (nothing written). */
  commit(statements: readonly BatchStatement[]): Promise<boolean>;
}

/** What a listener on a notification channel is told. */
export interface NotificationHandlers {
  /** One notification's payload, as the committing transaction sent it. */
  message(payload: string): void;
  /**
   * The channel is (again) being listened to: on the first connect and after every reconnect.
   * Notifications sent while nobody listened are lost, so whatever they would have said is unknown.
   */
  reset(): void;
  /**
   * Listening failed (the connection was lost, or cannot be opened): once per run of failures, until
   * it listens again (`reset`). For logs: the store retries by itself. Never names a password.
   */
  error?(err: unknown): void;
}

/**
 * Notifications between processes sharing the database (PostgreSQL `LISTEN`/`NOTIFY`): listening on
 * one connection of the store's own that reconnects when it drops.
 */
export interface StoreNotifications {
  /** Listens on `channel` until the returned function is called (or the store closes). */
  listen(channel: string, handlers: NotificationHandlers): () => void;
  /**
   * Sends `payloads` on `channel` in one transaction of their own, committed without waiting for the
   * WAL flush: a notification is a hint, and one lost in a crash costs a wake-up, never data.
   */
  notify(channel: string, payloads: readonly string[]): Promise<void>;
}

/** A database: statements outside transactions, transactions, and its capabilities. */
export interface Store extends Queryable {
  readonly capabilities: Capabilities;
  /** Where an engine whose driver blocks (SQLite) can commit plain writes off the event loop. */
  readonly background?: BackgroundWriter;
  /** Notifications from other processes sharing the database, where the engine has them. */
  readonly notifications?: StoreNotifications;
  /** A short description for logs (`sqlite:/path`, `postgres://host/db`), never with a password. */
  readonly description: string;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Transient
   * conflicts from the engine (serialisation failures, deadlocks) are retried a few times.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * After a write failed with its outcome unknown (its connection lost before the answer came): ends
   * the database session that ran it, if it still runs, and resolves true once that session is
   * gone. Whatever it ran has then committed or rolled back for good, so reading the write back
   * settles it. False when that cannot be made sure: the session is not known (an engine without
   * sessions, a pooler between), the database is out of reach, or the session would not end in time.
   */
  endLostSession?(err: unknown): Promise<boolean>;
  /** Whether `err` (or what it was caused by) names the session of a lost write, for {@link endLostSession}. */
  namesLostSession?(err: unknown): boolean;
  close(): Promise<void>;
}
