import { CanonryError, sha256Hex } from '../../core/index.js';
import { isDiskFull, storeFull } from '../disk-full.js';
import { postgresDriver } from '../drivers.js';
import type {
  Capabilities,
  Queryable,
  Row,
  SqlValue,
  Store,
  StoreNotifications,
  TransactionOptions,
} from '../types.js';
import { markWaitedOut } from '../waited-out.js';
import { togetherStatement } from '../writes-together.js';
import { PgNotifications } from './notify.js';

/** A query as the driver takes it; with a `name`, the connection parses and plans it once. */
interface QueryConfig {
  readonly text: string;
  readonly values: unknown[];
  readonly name?: string;
  readonly rowMode?: 'array';
  /** This statement's own answer timeout, in ms (the driver's per-query setting). */
  readonly query_timeout?: number;
}
type Result = { rows: unknown[]; rowCount: number | null };

/** The few driver methods canonry calls, so the rest of the code never sees driver types. */
interface Client {
  /** The backend's pid as the server announced it at connect (BackendKeyData). */
  readonly processID: number | null;
  query(sql: string | QueryConfig, params?: unknown[]): Promise<Result>;
  release(err?: Error | boolean): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}
interface Pool {
  query(sql: string | QueryConfig): Promise<Result>;
  connect(): Promise<Client>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * A database session as PostgreSQL names it: its backend's pid and when it started (a pid alone
 * could, in time, name another session).
 */
interface Session {
  readonly pid: number;
  readonly started: string;
}

/**
 * The session a connection is: read on its first use for a write (one query per connection), and
 * kept only when the pid the server announced at connect is the session's own — behind a pooler it
 * is the pooler's, and the session that runs a statement may be another than the one read here.
 *
 * The same query bounds the session where nobody else did (`source = 'default'` in `pg_settings`:
 * not the URL's `options`, the role's, the database's or the server's configuration, which win):
 * `lock_timeout` ($1, ms), so a lock another session holds is waited for at most so long and the
 * statement then fails 55P03 (`STORE_BUSY`), its wait ended by the server itself; and
 * `client_connection_check_interval` ($2, ms; PostgreSQL 14 and later, absent before), so a session
 * whose client gave up (the answer timeout dropped the connection) notices while it waits and ends,
 * leaving the lock's queue. `lock_timeout` comes back as the value set, or null when the session
 * had one of its own.
 */
const SESSION_OF_CONNECTION = `SELECT pid, backend_start::text AS started,
  (SELECT set_config('lock_timeout', $1, false) FROM pg_settings
    WHERE name = 'lock_timeout' AND source = 'default') AS lock_timeout,
  (SELECT set_config('client_connection_check_interval', $2, false) FROM pg_settings
    WHERE name = 'client_connection_check_interval' AND source = 'default') AS check_interval
  FROM pg_stat_activity WHERE pid = pg_backend_pid()`;
const END_SESSION =
  'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND backend_start = $2::timestamptz';
const SESSION_RUNS =
  'SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND backend_start = $2::timestamptz';
/** How long {@link PostgresStore.endLostSession} waits for an ended session to be gone. */
const END_SESSION_MS = 3_000;

/** Each failure whose write's outcome is unknown, and the session that was running the write. */
const lostSessions = new WeakMap<object, Session>();

/** The session `err` names, or the failure it was caused by (a caller may wrap it). */
function lostSessionOf(err: unknown): Session | undefined {
  for (let at = err, depth = 0; typeof at === 'object' && at !== null && depth < 8; depth++) {
    const session = lostSessions.get(at);
    if (session !== undefined) return session;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

const CAPABILITIES: Capabilities = {
  dialect: 'postgres',
  singleWriter: false,
  rowLocks: true,
  shared: true,
  dataModifyingCte: true,
};

/** SQLSTATEs worth retrying: serialisation failure, deadlock, unique violation on a racing insert. */
const TRANSIENT = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;
/** Any constant: the key of the advisory lock exclusive transactions (migrations) take. */
const EXCLUSIVE_LOCK_KEY = 7_070_001;
/**
 * How long opening a connection, or waiting for a free one of the pool, may take (the URL's libpq
 * `connect_timeout`, in seconds, overrides it): a database host that drops packets, or accepts and
 * never answers, would otherwise hold every request that needs a connection for as long as it does.
 */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * How long a statement's answer may take (the URL's `query_timeout`, in milliseconds, overrides
 * it): an established connection whose peer went silent answers nothing and, with data in flight,
 * is noticed by TCP only after ~15 min, holding its request and its slot of the pool meanwhile.
 * Below the HTTP server's idle timeout (60 s), so the request is still answered (503).
 */
const QUERY_TIMEOUT_MS = 30_000;
/**
 * A write's wait for a row lock (another session's transaction on the same journal head, an
 * operator's `SELECT … FOR UPDATE` left open) is bounded on the server at this share of the answer
 * timeout (24 s of 30 s): the server ends the wait and answers 55P03 (`STORE_BUSY`) before the
 * client would give up on it, so the request is answered 503 and no session is left queued for the
 * lock. An operator's own `lock_timeout` (the URL's `options`, the role's or database's) wins.
 */
const LOCK_WAIT_SHARE = 0.8;
/** How often a session that runs a statement checks that its client is still there. */
const CLIENT_CHECK_MS = 1_000;
/** TCP keepalive after this much idleness, so an idle connection whose peer vanished is dropped. */
const KEEPALIVE_IDLE_MS = 10_000;
/**
 * The answer timeout of an exclusive transaction's statements (migrations): the longest timer Node
 * keeps, i.e. none. Waiting for another process's migration, or an index built over a large table,
 * may rightly take longer than {@link QUERY_TIMEOUT_MS}; a silent peer is still noticed by keepalive.
 */
const UNBOUNDED_MS = 2_147_483_647;

/**
 * Statement texts that get a server-side prepared statement, at most: each connection keeps the
 * statements it prepared for its lifetime, so the set of names is bounded; texts past it run unnamed.
 */
const MAX_NAMED = 512;
const names = new Map<string, string | null>();
/** Statement texts kept with their names now, at most {@link MAX_NAMED} (tests). */
export const namedTexts = (): number => names.size;
let generation = 0;

/**
 * A parameterised statement as a named query: PostgreSQL parses and plans it once per connection
 * instead of on every call (the journal's append is one CTE statement, run thousands of times a
 * second). The name is derived from the text, so every store and connection agrees on it.
 */
function statement(sql: string, params: readonly SqlValue[], arrays: boolean): QueryConfig {
  const rowMode = arrays ? ({ rowMode: 'array' } as const) : {};
  // Without parameters a text may hold several statements, which only the simple protocol runs.
  if (params.length === 0) return { text: sql, values: [], ...rowMode };
  let name = names.get(sql);
  if (name === undefined) {
    // Past the bound a text runs unnamed and is not kept either: the texts a process meets are
    // not bounded (a list's statement has one per row count, and `runTogether` joins them).
    if (names.size >= MAX_NAMED) return { text: sql, values: [...params], ...rowMode };
    name = `canonry_${sha256Hex(sql).slice(0, 24)}`;
    names.set(sql, name);
  }
  return name === null
    ? { text: sql, values: [...params], ...rowMode }
    : { name, text: sql, values: [...params], ...rowMode };
}

/**
 * PostgreSQL replans a prepared statement whose tables changed, except when its result columns
 * changed (`SELECT *` after another process added a column): then the statement must be prepared
 * anew, under a new name since the connection still holds the old one.
 */
function isStalePlan(err: unknown): boolean {
  return (
    (err as { code?: string }).code === '0A000' &&
    /cached plan must not change result type/.test((err as Error).message)
  );
}

function replan(sql: string): void {
  if (names.get(sql)) names.set(sql, `canonry_${sha256Hex(sql).slice(0, 24)}_${++generation}`);
}

/**
 * Runs a statement as a named query. One whose cached plan went stale gets a new name; in
 * autocommit it then runs again, once. Inside a transaction a failed statement has aborted it, so
 * the error goes up and the transaction is run again (see the retry in `transaction`).
 */
async function query(
  on: { query(q: QueryConfig): Promise<Result> },
  sql: string,
  params: readonly SqlValue[],
  inTransaction = false,
  arrays = false,
): Promise<Result> {
  try {
    return await on.query(statement(sql, params, arrays));
  } catch (err) {
    if (!isStalePlan(err)) throw err;
    replan(sql);
    if (inTransaction) throw err;
    return on.query(statement(sql, params, arrays));
  }
}

/** Options for {@link PostgresStore}. */
export interface PostgresOptions {
  readonly connectionString: string;
  /** Connections in the pool (default 10). */
  readonly max?: number;
  /**
   * How often the connection that listens for notifications is asked `SELECT 1`, and how long it
   * may take to answer before it counts as lost (default 10 s).
   */
  readonly listenHeartbeatMs?: number;
}

/**
 * The scale-out store: PostgreSQL through a `pg` pool. Many canonry processes share one database;
 * the journal serialises appends per project by locking the project's head row, so projects never
 * wait on each other. BIGINT columns come back as numbers (seq stays far below 2^53).
 */
export class PostgresStore implements Store {
  readonly capabilities = CAPABILITIES;
  readonly description: string;
  readonly #pool: Pool;
  readonly #notifications: PgNotifications;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** `lock_timeout` for write sessions that have none of their own, in ms ({@link LOCK_WAIT_SHARE}). */
  readonly #lockTimeoutMs: number;
  #closed = false;

  constructor({ connectionString, max = 10, listenHeartbeatMs }: PostgresOptions) {
    this.description = redact(connectionString);
    this.#lockTimeoutMs = Math.max(
      1,
      Math.floor(queryTimeoutOf(connectionString) * LOCK_WAIT_SHARE),
    );
    const pg = postgresDriver();
    const types = {
      getTypeParser: (oid: number, format?: string) =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
    };
    this.#pool = new pg.Pool({
      connectionString,
      max,
      types,
      connectionTimeoutMillis: connectTimeoutOf(connectionString),
      // The URL's own `query_timeout`, when it has one, takes precedence (the driver reads it).
      query_timeout: QUERY_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    }) as unknown as Pool;
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.#pool.on('error', () => undefined);
    this.#notifications = new PgNotifications(
      connectionString,
      (text, values) =>
        this.#track(() => this.#pool.query({ name: 'canonry_notify', text, values })),
      listenHeartbeatMs === undefined ? {} : { heartbeatMs: listenHeartbeatMs },
    );
  }

  /** `LISTEN` on a connection of its own, opened while anyone listens (see `notify.ts`). */
  get notifications(): StoreNotifications {
    return this.#notifications;
  }

  async all<T extends object = Row>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.#track(() => query(this.#pool, sql, params))).rows as T[];
  }

  async values<T extends readonly unknown[] = unknown[]>(
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<T[]> {
    return (await this.#track(() => query(this.#pool, sql, params, false, true))).rows as T[];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (
      (await this.#track(() => this.#onClient((client) => query(client, sql, params)))).rowCount ??
      0
    );
  }

  async exec(sql: string): Promise<void> {
    await this.#track(() => this.#pool.query(sql));
  }

  /**
   * Ends the session a write whose outcome is unknown ran on (see `Store.endLostSession`): asks the
   * server to terminate it, then waits until it is gone. A session ends its transaction before it
   * leaves `pg_stat_activity`, so gone means what it ran committed or rolled back for good.
   */
  async endLostSession(err: unknown): Promise<boolean> {
    const session = lostSessionOf(err);
    if (session === undefined) return false;
    const params = [session.pid, session.started];
    const deadline = performance.now() + END_SESSION_MS;
    try {
      await this.#track(() => this.#pool.query({ text: END_SESSION, values: params }));
    } catch {
      // Not ours to end (another role's) or out of reach: it may still end on its own.
    }
    for (;;) {
      try {
        const { rows } = await this.#track(() =>
          this.#pool.query({ text: SESSION_RUNS, values: params }),
        );
        if (rows.length === 0) return true;
      } catch {
        return false;
      }
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  namesLostSession(err: unknown): boolean {
    return lostSessionOf(err) !== undefined;
  }

  /** Each connection's session, once read (null: not one to be named, see SESSION_OF_CONNECTION). */
  readonly #sessions = new WeakMap<Client, Session | null>();

  /** Connections whose `lock_timeout` is the store's own ({@link SESSION_OF_CONNECTION}). */
  readonly #boundedHere = new WeakSet<Client>();

  /**
   * Reads which session a connection is, and bounds its lock waits ({@link SESSION_OF_CONNECTION}),
   * on its first use for a write.
   */
  async #learnSession(client: Client): Promise<void> {
    if (this.#sessions.has(client)) return;
    const row = (
      await client.query(SESSION_OF_CONNECTION, [
        String(this.#lockTimeoutMs),
        String(CLIENT_CHECK_MS),
      ])
    ).rows[0] as { pid: number; started: string; lock_timeout: string | null } | undefined;
    if (row?.lock_timeout != null) this.#boundedHere.add(client);
    this.#sessions.set(
      client,
      row !== undefined && row.pid === client.processID
        ? { pid: row.pid, started: row.started }
        : null,
    );
  }

  /**
   * One autocommit statement on a connection of its own from the pool (what `pool.query` does),
   * so that when the connection is lost the failure can name the session that ran it.
   */
  async #onClient(work: (client: Client) => Promise<Result>): Promise<Result> {
    const client = await guard(() => this.#pool.connect());
    const onError = () => undefined;
    client.on('error', onError);
    try {
      await this.#learnSession(client);
      const result = await work(client);
      client.off('error', onError);
      client.release();
      return result;
    } catch (err) {
      const lost = isConnectionError(err);
      client.off('error', onError);
      client.release(lost ? (err as Error) : undefined);
      throw this.#failure(err, lost ? client : undefined);
    }
  }

  /** `err` as the store reports it, remembering the session a lost connection was (`client`). */
  #failure(err: unknown, client: Client | undefined): unknown {
    const failure = asStoreError(err);
    const session = client === undefined ? undefined : this.#sessions.get(client);
    if (session && typeof failure === 'object' && failure !== null) {
      lostSessions.set(failure, session);
    }
    return failure;
  }

  /**
   * Runs one operation, refusing it once the store is closing. `pool.end()` would silently drop
   * queued requests, leaving their callers waiting forever; `close` waits for these instead.
   */
  #track<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed)
      return Promise.reject(new CanonryError('STORE_UNAVAILABLE', 'the store is closed'));
    const running = guard(work);
    this.#inFlight.add(running);
    const done = () => this.#inFlight.delete(running);
    running.then(done, done);
    return running;
  }

  transaction<T>(
    work: (tx: Queryable) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    return this.#track(() => this.#transaction(work, options));
  }

  async #transaction<T>(
    work: (tx: Queryable) => Promise<T>,
    options: TransactionOptions,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await guard(() => this.#pool.connect());
      // While checked out, a client has no pool listener: a dropped connection would emit an
      // unhandled 'error' and end the process. The failed query reports it instead.
      const onError = () => undefined;
      client.on('error', onError);
      let committing = false;
      // Migrations wait for each other and may build indexes over large tables: no answer timeout.
      const on = options.exclusive ? unbounded(client) : client;
      try {
        await this.#learnSession(client);
        await client.query('BEGIN');
        // A migration waits for another process's as long as it takes (the store's own lock bound
        // is for writes; an operator's stays).
        if (options.exclusive && this.#boundedHere.has(client))
          await client.query('SET LOCAL lock_timeout = 0');
        if (options.exclusive)
          await on.query({
            text: 'SELECT pg_advisory_xact_lock($1)',
            values: [EXCLUSIVE_LOCK_KEY],
          });
        const result = await work(queryable(on));
        committing = true;
        await client.query('COMMIT');
        client.off('error', onError);
        client.release();
        return result;
      } catch (err) {
        // A lost or silent connection is dropped, not rolled back: PostgreSQL rolls back a session
        // that ends, and on a silent one ROLLBACK would wait behind the statement that timed out.
        const lost = isConnectionError(err);
        if (!lost) await client.query('ROLLBACK').catch(() => undefined);
        client.off('error', onError);
        client.release(lost ? (err as Error) : undefined);
        if (committing && isConnectionError(err)) {
          // COMMIT was sent and no answer came back: it may have committed. Never retry blindly.
          throw this.#failure(
            new CanonryError(
              'STORE_UNAVAILABLE',
              'the connection dropped during COMMIT; the outcome is unknown',
              { outcome: 'unknown' },
              { cause: err },
            ),
            client,
          );
        }
        const code = (err as { code?: string }).code;
        if (((code && TRANSIENT.has(code)) || isStalePlan(err)) && attempt < MAX_ATTEMPTS) continue;
        throw asStoreError(err);
      }
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#notifications.close();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    await this.#pool.end();
  }
}

/** `client` with every statement's answer timeout lifted ({@link UNBOUNDED_MS}). */
function unbounded(client: Client): Pick<Client, 'query'> {
  return {
    query: (sql, params) =>
      client.query(
        typeof sql === 'string'
          ? { text: sql, values: params ?? [], query_timeout: UNBOUNDED_MS }
          : { ...sql, query_timeout: UNBOUNDED_MS },
      ),
  };
}

function queryable(client: Pick<Client, 'query'>): Queryable {
  return {
    all: async <T extends object>(sql: string, params: readonly SqlValue[] = []) =>
      (await query(client, sql, params, true)).rows as T[],
    values: async <T extends readonly unknown[]>(sql: string, params: readonly SqlValue[] = []) =>
      (await query(client, sql, params, true, true)).rows as T[],
    run: async (sql, params = []) => (await query(client, sql, params, true)).rowCount ?? 0,
    exec: async (sql) => {
      await client.query(sql);
    },
    runTogether: async (writes) => {
      const together = togetherStatement(writes);
      if (!together) {
        for (const w of writes) await query(client, w.sql, w.params, true);
        return;
      }
      await query(client, together.sql, together.params, true);
    },
  };
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asStoreError(err);
  }
}

/** The driver's own timeouts: a statement not answered, a connection not opened or not free. */
const TIMED_OUT =
  /^(Query read timeout|timeout exceeded when trying to connect|timeout expired|Connection terminated due to connection timeout)$/;

/**
 * True for failures of the connection itself (refused, reset, terminated by the server, PostgreSQL's
 * class 08 connection exceptions) and for the driver's timeouts, after which the connection is not
 * used again.
 */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : '';
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ENOTFOUND' ||
    code === 'EPIPE' ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    (typeof code === 'string' && code.startsWith('08')) ||
    TIMED_OUT.test(message) ||
    /Connection terminated|connection is closed|Client has encountered a connection error/i.test(
      message,
    )
  );
}

/** The pool's connect timeout: the URL's `connect_timeout` (seconds, as libpq reads it), else ours. */
function connectTimeoutOf(connectionString: string): number {
  let seconds = Number.NaN;
  try {
    seconds = Number(new URL(connectionString).searchParams.get('connect_timeout') ?? Number.NaN);
  } catch {
    // Not a URL the WHATWG parser takes: the driver reports it on connect.
  }
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1_000 : CONNECT_TIMEOUT_MS;
}

/** The answer timeout: the URL's `query_timeout` (ms, as the driver reads it), else ours. */
function queryTimeoutOf(connectionString: string): number {
  let ms = Number.NaN;
  try {
    ms = Number(new URL(connectionString).searchParams.get('query_timeout') ?? Number.NaN);
  } catch {
    // Not a URL the WHATWG parser takes: the driver reports it on connect.
  }
  return Number.isFinite(ms) && ms > 0 ? ms : QUERY_TIMEOUT_MS;
}

/** Why a connection could not even be opened, by PostgreSQL's SQLSTATE or the socket's code. */
const CANNOT_CONNECT: Readonly<Record<string, string>> = {
  '3D000': 'the database does not exist',
  '28P01': 'the database refused the credentials',
  '28000': 'the database refused the connection (authorization)',
  '53300': 'the database has no free connection slots',
  EAI_AGAIN: 'the database host name could not be resolved',
  ETIMEDOUT: 'the database did not answer',
  EHOSTUNREACH: 'the database host is unreachable',
};

/**
 * The database's own conditions, by SQLSTATE: it cannot do the work now but is not the caller's
 * fault — retrying may succeed once it passes or an operator sees to it — or, for damaged data,
 * retrying will not help.
 */
const CONDITIONS: Readonly<
  Record<
    string,
    { readonly code: 'STORE_UNAVAILABLE' | 'STORE_BUSY' | 'STORE_CORRUPT'; readonly says: string }
  >
> = {
  // A standby after a failover, or `default_transaction_read_only`: writes wait for a primary.
  '25006': {
    code: 'STORE_UNAVAILABLE',
    says: 'the database is read-only (a standby, or default_transaction_read_only)',
  },
  // The operator's `lock_timeout`; the transaction was rolled back whole.
  '55P03': {
    code: 'STORE_BUSY',
    says: "a lock was not granted within the database's lock_timeout",
  },
  // Retried already (`TRANSIENT`) and still refused.
  '40001': {
    code: 'STORE_BUSY',
    says: 'the database kept refusing the transaction as concurrent work collided',
  },
  '40P01': {
    code: 'STORE_BUSY',
    says: 'the database kept refusing the transaction as concurrent work collided',
  },
  // The operator's `statement_timeout`, or a statement cancelled by an administrator.
  '57014': {
    code: 'STORE_UNAVAILABLE',
    says: 'the database cancelled the statement (statement_timeout, or an administrator)',
  },
  '57P04': { code: 'STORE_UNAVAILABLE', says: 'the database was dropped' },
  '53000': { code: 'STORE_UNAVAILABLE', says: 'the database is out of resources' },
  '53200': { code: 'STORE_UNAVAILABLE', says: 'the database is out of memory' },
  '58000': {
    code: 'STORE_UNAVAILABLE',
    says: 'the database reported a system error; check its server',
  },
  '58030': {
    code: 'STORE_UNAVAILABLE',
    says: 'the database reported an I/O error; check its disk',
  },
  XX001: {
    code: 'STORE_CORRUPT',
    says: 'the database reports damaged data: retrying will not help; restore it from a backup',
  },
  XX002: {
    code: 'STORE_CORRUPT',
    says: 'the database reports a damaged index: retrying will not help; REINDEX it',
  },
};

/**
 * Connection failures (and a database that does not exist or refuses the login) become
 * STORE_UNAVAILABLE, with a message that says which; a full disk (53100) STORE_FULL; the database's
 * own conditions ({@link CONDITIONS}) their code, with the SQLSTATE in `details.sqlstate`; everything
 * else passes through unchanged.
 */
function asStoreError(err: unknown): unknown {
  if (isDiskFull(err)) return storeFull(err);
  const code = (err as { code?: string }).code;
  const condition = code === undefined ? undefined : CONDITIONS[code];
  if (condition !== undefined) {
    const failure = new CanonryError(
      condition.code,
      `${condition.says} (SQLSTATE ${code}); nothing of the operation was kept`,
      { sqlstate: code },
      { cause: err },
    );
    return code === '57014' ? markWaitedOut(failure) : failure;
  }
  const reason = code === undefined ? undefined : CANNOT_CONNECT[code];
  if (reason !== undefined || isConnectionError(err)) {
    const late = err instanceof Error && TIMED_OUT.test(err.message);
    const failure = new CanonryError(
      'STORE_UNAVAILABLE',
      reason ?? (late ? 'the database did not answer in time' : 'the database is unreachable'),
      undefined,
      {
        cause: err,
      },
    );
    return late ? markWaitedOut(failure) : failure;
  }
  return err;
}

/** A PostgreSQL URL as canonry shows it: its password, if any, replaced by `***`. */
export function redact(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable)';
  }
}
