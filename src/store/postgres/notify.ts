import { postgresDriver } from '../drivers.js';
import type { NotificationHandlers, StoreNotifications } from '../types.js';

/** The few driver methods the listener calls. */
interface ListenClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(
    event: 'notification',
    listener: (msg: { channel: string; payload?: string }) => void,
  ): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
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
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/**
 * PostgreSQL `LISTEN` on one connection of its own, opened when the first handler arrives and closed
 * when the last one leaves. A dropped connection is reopened (100 ms, doubling up to 5 s); once it
 * listens again every handler is told `reset`, since whatever was sent meanwhile is lost. `notify`
 * goes through the store's pool (`send`).
 */
export class PgNotifications implements StoreNotifications {
  readonly #connectionString: string;
  readonly #channels = new Map<string, Set<NotificationHandlers>>();
  #client: ListenClient | null = null;
  /** Bumped whenever the connection is dropped or replaced: late callbacks of an older one do nothing. */
  #epoch = 0;
  #connected = false;
  #retryMs = FIRST_RETRY_MS;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  readonly #send: (sql: string, values: unknown[]) => Promise<unknown>;

  constructor(
    connectionString: string,
    send: (sql: string, values: unknown[]) => Promise<unknown>,
  ) {
    this.#connectionString = connectionString;
    this.#send = send;
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
        () => this.#drop(epoch),
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
    }) as unknown as ListenClient;
    this.#client = client;
    client.on('error', () => this.#drop(epoch));
    client.on('end', () => this.#drop(epoch));
    client.on('notification', (msg) => {
      if (epoch !== this.#epoch) return;
      for (const handlers of this.#channels.get(msg.channel) ?? []) {
        safely(() => handlers.message(msg.payload ?? ''));
      }
    });
    const channels = [...this.#channels.keys()];
    (async () => {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN "${channel}"`);
    })().then(
      () => {
        if (epoch !== this.#epoch) return;
        this.#connected = true;
        this.#retryMs = FIRST_RETRY_MS;
        for (const set of this.#channels.values()) {
          for (const handlers of set) safely(() => handlers.reset());
        }
      },
      () => this.#drop(epoch),
    );
  }

  /** The connection `epoch` failed: forget it and, while anyone listens, try again after a pause. */
  #drop(epoch: number): void {
    if (epoch !== this.#epoch) return;
    const client = this.#client;
    this.#epoch++;
    this.#client = null;
    this.#connected = false;
    client?.end().catch(() => undefined);
    if (this.#closed || this.#channels.size === 0) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed && this.#channels.size > 0 && this.#client === null) this.#connect();
    }, wait);
    this.#timer.unref();
  }

  async #disconnect(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const client = this.#client;
    this.#epoch++;
    this.#client = null;
    this.#connected = false;
    await client?.end().catch(() => undefined);
  }
}

/** A handler that throws must not stop the others or the connection. */
function safely(work: () => void): void {
  try {
    work();
  } catch {
    // The handler's own failure is its business; the connection stays.
  }
}
