import { Backoff, CanonryError } from '../../core/index.js';
import { postgresDriver } from '../drivers.js';
import type { NotificationHandlers, StoreNotifications } from '../types.js';

/** The few driver methods the listener calls. */
interface ListenClient {
  connect(): Promise<unknown>;
  query(sql: string | { text: string; query_timeout: number }): Promise<unknown>;
  end(): Promise<void>;
  on(
    event: 'notification',
    listener: (msg: { channel: string; payload?: string }) => void,
  ): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** Channel names are identifiers, quoted in LISTEN; nothing else is accepted. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
/**
 * All payloads in one statement, so one transaction: its commit skips the WAL flush. A transaction
 * that notifies holds PostgreSQL's notify lock until its commit is done, so notifying inside the
 * journal's own (flushed) commits would queue every writer of the database behind one another.
 */
const NOTIFY = `SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, payload)
  FROM unnest($2::text[]) AS payload`;
/** Pauses before opening the connection again: 0.1 s doubling to 5 s, jittered (`Backoff`). */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;
/**
 * How long opening the listening connection may take: a database host that drops packets (rather
 * than refusing) would otherwise hold the attempt for the kernel's SYN retries (~2 min on Linux),
 * and nothing listens until it fails, also once the database is back.
 */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * TCP keepalive after this much idleness (the driver's default leaves it to the system's, 2 h on
 * Linux): a connection that only listens sends nothing, so a peer that vanished is noticed only by
 * keepalive. Until then the feed's safety poll stands in for its notifications.
 */
const KEEPALIVE_IDLE_MS = 10_000;
/**
 * Kernel keepalive gives up on a vanished peer only after its probes run out (~11 min on Linux's
 * defaults), and a connection that only listens never learns on its own that it went silent (a
 * partition, a frozen host, a NAT that forgot it). So while it listens it asks `SELECT 1` this
 * often, and an answer that takes as long again means the connection is lost: it is reopened and
 * the handlers told `reset`, so no follower waits on a deaf connection longer than twice this.
 */
export const LISTEN_HEARTBEAT_MS = 10_000;

/**
 * PostgreSQL `LISTEN` on one connection of its own, opened when the first handler arrives and closed
 * when the last one leaves. A dropped connection is reopened (100 ms, doubling up to 5 s, jittered
 * so that processes that lost one database do not all reconnect at the same moments); once it
 * listens again every handler is told `reset`, since whatever was sent meanwhile is lost. The first
 * failure of a run of them (the connection lost, or it cannot be opened) is told to every handler's
 * `error`, once until it listens again. `notify` goes through the store's pool (`send`).
 */
export class PgNotifications implements StoreNotifications {
  readonly #connectionString: string;
  readonly #channels = new Map<string, Set<NotificationHandlers>>();
  #client: ListenClient | null = null;
  /** Bumped whenever the connection is dropped or replaced: late callbacks of an older one do nothing. */
  #epoch = 0;
  #connected = false;
  /** A failure was reported since the connection last listened: the next ones are not. */
  #reported = false;
  readonly #retry = new Backoff({ firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS });
  #timer: NodeJS.Timeout | undefined;
  /** The next heartbeat of the listening connection. */
  #beat: NodeJS.Timeout | undefined;
  readonly #heartbeatMs: number;
  #closed = false;

  readonly #send: (sql: string, values: unknown[]) => Promise<unknown>;

  constructor(
    connectionString: string,
    send: (sql: string, values: unknown[]) => Promise<unknown>,
    options: { readonly heartbeatMs?: number } = {},
  ) {
    const heartbeatMs = options.heartbeatMs ?? LISTEN_HEARTBEAT_MS;
    if (!Number.isInteger(heartbeatMs) || heartbeatMs < 10 || heartbeatMs > 3_600_000) {
      throw new RangeError('heartbeatMs must be an integer from 10 to 3,600,000');
    }
    this.#connectionString = connectionString;
    this.#send = send;
    this.#heartbeatMs = heartbeatMs;
  }

  async notify(channel: string, payloads: readonly string[]): Promise<void> {
    if (!CHANNEL.test(channel)) throw new TypeError(`not a channel name: ${channel}`);
    if (this.#closed || payloads.length === 0) return;
    await this.#send(NOTIFY, [channel, [...payloads]]);
  }

  listen(channel: string, handlers: NotificationHandlers): () => void {
    if (!CHANNEL.test(channel)) throw new TypeError(`not a channel name: ${channel}`);
    if (this.#closed) return () => undefined;
    let set = this.#channels.get(channel);
    const fresh = set === undefined;
    if (!set) {
      set = new Set();
      this.#channels.set(channel, set);
    }
    set.add(handlers);
    if (this.#client === null && this.#timer === undefined) this.#connect();
    else if (this.#connected) {
      // Already listening: a new channel needs its LISTEN first; either way the handler is now live.
      const client = this.#client!;
      const epoch = this.#epoch;
      const ready = fresh ? client.query(`LISTEN "${channel}"`) : Promise.resolve();
      ready.then(
        () => {
          if (epoch === this.#epoch && set.has(handlers)) safely(() => handlers.reset());
        },
        (err: unknown) => this.#drop(epoch, err),
      );
    }
    return () => {
      set.delete(handlers);
      if (set.size > 0) return;
      this.#channels.delete(channel);
      if (this.#channels.size === 0) void this.#disconnect();
      else if (this.#connected) this.#client!.query(`UNLISTEN "${channel}"`).catch(() => undefined);
    };
  }

  /** Stops listening for good; later `listen` calls do nothing. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    await this.#disconnect();
  }

  #connect(): void {
    const epoch = ++this.#epoch;
    const client = new (postgresDriver().Client)({
      connectionString: this.#connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    }) as unknown as ListenClient;
    this.#client = client;
    client.on('error', (err) => this.#drop(epoch, err));
    client.on('end', () => this.#drop(epoch, new Error('the connection ended')));
    client.on('notification', (msg) => {
      if (epoch !== this.#epoch) return;
      for (const handlers of this.#channels.get(msg.channel) ?? []) {
        safely(() => handlers.message(msg.payload ?? ''));
      }
    });
    (async () => {
      await client.connect();
      // Every channel is listened to, also one whose first handler came while this connected; the
      // last check and `#connected` in one step, so none comes in between.
      const listening = new Set<string>();
      for (;;) {
        if (epoch !== this.#epoch) return;
        const channel = [...this.#channels.keys()].find((c) => !listening.has(c));
        if (channel === undefined) break;
        listening.add(channel);
        await client.query(`LISTEN "${channel}"`);
      }
      this.#connected = true;
      this.#reported = false;
      this.#retry.reset();
      this.#heartbeat(epoch, client);
      for (const set of this.#channels.values()) {
        for (const handlers of set) safely(() => handlers.reset());
      }
    })().catch((err: unknown) => this.#drop(epoch, err));
  }

  /** Asks the listening connection `SELECT 1` every `heartbeatMs` while it is this epoch's. */
  #heartbeat(epoch: number, client: ListenClient): void {
    this.#beat = setTimeout(() => {
      this.#beat = undefined;
      if (epoch !== this.#epoch) return;
      // The driver fails the query when no answer came in time; ending the client then destroys
      // its socket, since the unanswered query is still the active one.
      client.query({ text: 'SELECT 1', query_timeout: this.#heartbeatMs }).then(
        () => {
          if (epoch === this.#epoch) this.#heartbeat(epoch, client);
        },
        (err: unknown) =>
          this.#drop(
            epoch,
            (err as Error)?.message === 'Query read timeout'
              ? new Error(`no answer to a heartbeat within ${this.#heartbeatMs} ms`)
              : err,
          ),
      );
    }, this.#heartbeatMs);
    this.#beat.unref();
  }

  /** The connection `epoch` failed: forget it and, while anyone listens, try again after a pause. */
  #drop(epoch: number, cause: unknown): void {
    if (epoch !== this.#epoch) return;
    const client = this.#client;
    const lost = this.#connected;
    this.#epoch++;
    this.#client = null;
    this.#connected = false;
    clearTimeout(this.#beat);
    this.#beat = undefined;
    client?.end().catch(() => undefined);
    if (this.#closed || this.#channels.size === 0) return;
    const wait = this.#retry.next();
    if (!this.#reported) {
      this.#reported = true;
      this.#report(lost, cause, wait);
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed && this.#channels.size > 0 && this.#client === null) this.#connect();
    }, wait);
    this.#timer.unref();
  }

  /**
   * Tells every handler that listening failed. The driver's error names the failure (a refused or
   * reset socket, a terminated backend, a refused login), never the connection string's password.
   */
  #report(lost: boolean, cause: unknown, retryInMs: number): void {
    const err = new CanonryError(
      'STORE_UNAVAILABLE',
      `${lost ? 'the connection listening for notifications was lost' : 'listening for notifications failed'}` +
        ` (${reasonOf(cause)}); retrying, notifications sent meanwhile are lost`,
      { retry_in_ms: retryInMs },
    );
    for (const set of this.#channels.values()) {
      for (const handlers of set) safely(() => handlers.error?.(err));
    }
  }

  async #disconnect(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    clearTimeout(this.#beat);
    this.#beat = undefined;
    const client = this.#client;
    this.#epoch++;
    this.#client = null;
    this.#connected = false;
    await client?.end().catch(() => undefined);
  }
}

/** A driver failure in a few words: its message, else its code (a refused socket's may be empty). */
function reasonOf(cause: unknown): string {
  const { message, code } = (cause ?? {}) as { message?: unknown; code?: unknown };
  if (typeof message === 'string' && message !== '') return message.slice(0, 200);
  return typeof code === 'string' ? code : 'unknown failure';
}

/** A handler that throws must not stop the others or the connection. */
function safely(work: () => void): void {
  try {
    work();
  } catch {
    // The handler's own failure is its business; the connection stays.
  }
}
