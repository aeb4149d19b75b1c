import { Backoff, CanonryError } from '../core/index.js';
import { isTransientStoreError, type StoreNotifications } from '../store/index.js';
import { parseProject } from './entry-input.js';
import type { Head, JournalEntry } from './types.js';

/** The channel every commit is announced on, as `<project>:<seq>`, where the store has notifications. */
export const FEED_CHANNEL = 'canonry_journal';

/** How often followed heads are polled on a store without notifications (another process's writes). */
const POLL_MS = 1_000;
/**
 * How often they are polled with notifications: a commit whose announcement was lost (its process
 * died between commit and NOTIFY, or the database crashed before the announcement was flushed).
 */
const SAFETY_POLL_MS = 5_000;

/**
 * Least time between two announcements of this process's commits. Each is a statement on the
 * store's pool: one per commit took a writer's connection between its appends (8 writers with one
 * connection each fell from 0.71× to 0.51× of raw INSERTs). Batched to one per 10 ms, it costs a
 * follower in another process at most 10 ms more.
 */
const ANNOUNCE_GAP_MS = 10;

/**
 * Bytes of entries a page holds by default (bodies, authorities and receipts as stored): a page of
 * 100 entries of up to 1 MiB each could otherwise hold 100 MiB for one follower that does not read.
 */
export const FOLLOW_PAGE_BYTES = 2 * 1024 * 1024;
/** The largest page budget a follower may ask for. */
const MAX_PAGE_BYTES = 64 * 1024 * 1024;

/**
 * A read that failed because the store refuses for now (`isTransientStoreError`) is tried again
 * after a pause of 0.1 s doubling to 5 s, jittered, or at the next wake-up if sooner (listening again
 * after an outage is one).
 */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/** Options for {@link JournalFeed.follow}. */
export interface FollowOptions {
  /** Follow the entries after this seq (default 0: from the first). */
  readonly after?: number;
  /** Entries read at a time, 1–1,000 (default 100): the most a follower that does not consume holds. */
  readonly limit?: number;
  /**
   * Bytes read at a time, 1 KiB–64 MiB (default 2 MiB, {@link FOLLOW_PAGE_BYTES}): a page stops
   * before the entry that would take it past this, but always holds at least one entry.
   */
  readonly bytes?: number;
  /** Ends the feed when aborted, like `return()`. */
  readonly signal?: AbortSignal;
}

/**
 * A live feed of one project's entries: every committed entry after the starting seq, once, in seq
 * order, waiting for the next when it has handed out all there are. `return()` (or `break` in a
 * `for await`) ends it at once, also while it waits. A read that fails because the store refuses
 * for now (unreachable, busy, full: `isTransientStoreError`) is tried again (see `FIRST_RETRY_MS`),
 * so the feed outlives an outage; any other failed read rejects `next()` and ends the feed: follow
 * again from `cursor`.
 */
export interface JournalFollower extends AsyncIterableIterator<JournalEntry, undefined> {
  /** The seq of the last entry handed out (the starting seq before the first). */
  readonly cursor: number;
  return(): Promise<IteratorResult<JournalEntry, undefined>>;
}

/** What the feed reads: the journal's own paged read and head. */
export interface FeedReader {
  read(
    project: string,
    page: { after: number; limit: number; bytes: number },
  ): Promise<JournalEntry[]>;
  head(project: string): Promise<Head>;
}

/** A follower waiting for an entry past `cursor`. */
interface Waiter {
  readonly cursor: number;
  readonly wake: () => void;
}

/** The wake-ups of one project, shared by all its followers. */
class ProjectWakes {
  /** Counts wake-ups, so a follower sees one that came while it was reading. */
  generation = 0;
  followers = 0;
  readonly waiters = new Set<Waiter>();
  /** Reads in flight by `after:limit:bytes:generation`: followers woken together at one cursor share one. */
  readonly reads = new Map<string, Promise<JournalEntry[]>>();
  /**
   * The jitter drawn for each failed read: the followers that shared it draw the same, so (at the
   * same step) they retry in one tick and share the next read too; other processes draw their own.
   */
  readonly #jitters = new WeakMap<Promise<JournalEntry[]>, number>();

  jitterOf(read: Promise<JournalEntry[]>): number {
    let jitter = this.#jitters.get(read);
    if (jitter === undefined) {
      jitter = Math.random();
      this.#jitters.set(read, jitter);
    }
    return jitter;
  }

  /** The head moved to `seq` (Infinity: it may have moved anywhere): wakes whoever is behind it. */
  moved(seq: number): void {
    this.generation++;
    for (const waiter of this.waiters) {
      if (waiter.cursor >= seq) continue;
      this.waiters.delete(waiter);
      waiter.wake();
    }
  }
}

const DONE: IteratorResult<JournalEntry, undefined> = { done: true, value: undefined };
const EMPTY: readonly JournalEntry[] = [];

/**
 * Live feeds of a journal's projects. A wake-up only says "the head of P moved to N"; followers then
 * read committed entries with the journal's paged read from their own cursor, so a missed or
 * coalesced wake-up never loses an entry. Wake-ups come from this process's commits (`moved`), from
 * the store's notifications when it has them (PostgreSQL: other processes announce their commits
 * after committing; after a lost connection every follower reads again), and from a poll of the
 * followed heads: once a second without notifications (a SQLite file another process writes to),
 * every 5 s with them (an announcement lost in a crash).
 */
export class JournalFeed {
  readonly #reader: FeedReader;
  readonly #notifications: StoreNotifications | undefined;
  readonly #onError: (err: unknown) => void;
  readonly #projects = new Map<string, ProjectWakes>();
  readonly #followers = new Set<Follower>();
  #unlisten: (() => void) | undefined;
  #poll: NodeJS.Timeout | undefined;
  #closed = false;
  /** Commits not yet announced to other processes: the highest seq per project. */
  readonly #unannounced = new Map<string, number>();
  #announcing = false;
  /** When the last announcement was sent (ms), and the timer holding the next one back. */
  #announcedAt = Number.NEGATIVE_INFINITY;
  #announceTimer: NodeJS.Timeout | undefined;

  /** `onError` hears that listening for other processes' commits failed (the store retries). */
  constructor(
    reader: FeedReader,
    notifications?: StoreNotifications,
    onError: (err: unknown) => void = () => undefined,
  ) {
    this.#reader = reader;
    this.#notifications = notifications;
    this.#onError = onError;
  }

  /**
   * The head of `project` is committed at `seq`: wakes this process's followers and, if this process
   * committed it (`announce`), tells the others.
   */
  moved(project: string, seq: number, announce = true): void {
    this.#projects.get(project)?.moved(seq);
    if (!announce || !this.#notifications || this.#closed) return;
    if ((this.#unannounced.get(project) ?? 0) < seq) this.#unannounced.set(project, seq);
    this.#announce();
  }

  /**
   * Announces commits after they committed, one statement at a time: what commits while one is in
   * flight goes in the next, one payload per project. A failure loses wake-ups, never entries (the
   * safety poll finds what it would have announced).
   */
  #announce(): void {
    if (this.#announcing || this.#announceTimer || this.#unannounced.size === 0) return;
    const wait = this.#announcedAt + ANNOUNCE_GAP_MS - Date.now();
    if (wait > 0) {
      this.#announceTimer = setTimeout(() => {
        this.#announceTimer = undefined;
        if (!this.#closed) this.#announce();
      }, wait);
      this.#announceTimer.unref();
      return;
    }
    this.#announcedAt = Date.now();
    this.#announcing = true;
    const payloads = [...this.#unannounced].map(([project, seq]) => `${project}:${seq}`);
    this.#unannounced.clear();
    this.#notifications!.notify(FEED_CHANNEL, payloads)
      .catch(() => undefined)
      .finally(() => {
        this.#announcing = false;
        if (!this.#closed) this.#announce();
      });
  }

  /** Follows `project` from `after` (see {@link JournalFollower}); bad options reject the first `next()`. */
  follow(project: string, options: FollowOptions = {}): JournalFollower {
    return new Follower(this.#reader, project, options, {
      attach: (name, follower) => this.#attach(name, follower),
      detach: (name, follower) => this.#detach(name, follower),
    });
  }

  /** Ends every feed and stops listening (an announcement in flight still goes out). */
  close(): void {
    // What waited for the gap goes out now (best effort: the store may close right after).
    clearTimeout(this.#announceTimer);
    this.#announceTimer = undefined;
    this.#announcedAt = Number.NEGATIVE_INFINITY;
    this.#announce();
    this.#closed = true;
    this.#unannounced.clear();
    for (const follower of [...this.#followers]) void follower.return();
    this.#unlisten?.();
    this.#unlisten = undefined;
    clearInterval(this.#poll);
    this.#poll = undefined;
  }

  #attach(project: string, follower: Follower): ProjectWakes | null {
    if (this.#closed) return null;
    let wakes = this.#projects.get(project);
    if (!wakes) {
      wakes = new ProjectWakes();
      this.#projects.set(project, wakes);
    }
    wakes.followers++;
    this.#followers.add(follower);
    this.#startWatching();
    return wakes;
  }

  #detach(project: string, follower: Follower): void {
    this.#followers.delete(follower);
    const wakes = this.#projects.get(project);
    if (!wakes || --wakes.followers > 0) return;
    this.#projects.delete(project);
    if (this.#projects.size === 0) {
      clearInterval(this.#poll);
      this.#poll = undefined;
    }
  }

  /**
   * Other processes' commits: one LISTEN for the whole journal, kept until `close` (a follower that
   * reconnects does not reopen it), or a poll while anyone follows.
   */
  #startWatching(): void {
    if (this.#notifications) {
      this.#unlisten ??= this.#notifications.listen(FEED_CHANNEL, {
        message: (payload) => this.#notified(payload),
        // Listening (again): what was sent while nobody listened is lost, so everyone reads.
        reset: () => {
          for (const wakes of this.#projects.values()) wakes.moved(Number.POSITIVE_INFINITY);
        },
        // Meanwhile the safety poll stands in; the store reconnects with backoff.
        error: (err) => this.#onError(err),
      });
    }
    if (this.#poll) return;
    const every = this.#notifications ? SAFETY_POLL_MS : POLL_MS;
    this.#poll = setInterval(() => void this.#pollHeads(), every);
    this.#poll.unref();
  }

  #notified(payload: string): void {
    const colon = payload.lastIndexOf(':');
    const wakes = this.#projects.get(payload.slice(0, colon));
    if (!wakes) return;
    const seq = Number(payload.slice(colon + 1));
    wakes.moved(Number.isSafeInteger(seq) ? seq : Number.POSITIVE_INFINITY);
  }

  async #pollHeads(): Promise<void> {
    for (const [project, wakes] of this.#projects) {
      if (wakes.waiters.size === 0) continue;
      try {
        wakes.moved((await this.#reader.head(project)).seq);
      } catch {
        // The store is unreachable for now: the next poll asks again.
      }
    }
  }
}

/**
 * The entries after `after`, read once for every follower that asks while the read runs — but only
 * followers that have seen no wake-up since it started: a read that began before a commit's wake-up
 * may miss that commit, so a follower woken by it starts a read of its own.
 */
function sharedRead(
  reader: FeedReader,
  wakes: ProjectWakes,
  project: string,
  after: number,
  limit: number,
  bytes: number,
): Promise<JournalEntry[]> {
  const key = `${after}:${limit}:${bytes}:${wakes.generation}`;
  let read = wakes.reads.get(key);
  if (!read) {
    read = reader.read(project, { after, limit, bytes });
    wakes.reads.set(key, read);
    const forget = () => wakes.reads.delete(key);
    read.then(forget, forget);
  }
  return read;
}

/** How a follower joins and leaves its project's wake-ups. */
interface Membership {
  attach(project: string, follower: Follower): ProjectWakes | null;
  detach(project: string, follower: Follower): void;
}

class Follower implements JournalFollower {
  readonly #reader: FeedReader;
  readonly #membership: Membership;
  readonly #project: string;
  readonly #limit: number;
  readonly #bytes: number;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => void this.return();
  #cursor: number;
  #page: readonly JournalEntry[] = EMPTY;
  #index = 0;
  /** Null once the feed ended. */
  #wakes: ProjectWakes | null = null;
  #waiter: Waiter | null = null;
  /** The pauses before a failed read is tried again, drawn with its read's jitter. */
  #jitter = 0;
  readonly #retry = new Backoff({
    firstMs: FIRST_RETRY_MS,
    maxMs: MAX_RETRY_MS,
    random: () => this.#jitter,
  });
  /** A bad option, reported by the first `next()`. */
  #invalid: unknown;
  /** `next()` calls run one after the other. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(reader: FeedReader, project: string, options: FollowOptions, membership: Membership) {
    this.#reader = reader;
    this.#membership = membership;
    const { after = 0, limit = 100, bytes = FOLLOW_PAGE_BYTES, signal } = options;
    this.#cursor = after;
    this.#limit = limit;
    this.#bytes = bytes;
    this.#signal = signal;
    this.#project = project;
    try {
      this.#project = parseProject(project);
      if (!Number.isSafeInteger(after) || after < 0)
        throw new CanonryError('INVALID_ARGUMENT', 'after must be an integer ≥ 0');
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1_000)
        throw new CanonryError('INVALID_ARGUMENT', 'limit must be an integer 1–1000');
      if (!Number.isSafeInteger(bytes) || bytes < 1_024 || bytes > MAX_PAGE_BYTES)
        throw new CanonryError('INVALID_ARGUMENT', 'bytes must be an integer 1 KiB–64 MiB');
    } catch (err) {
      this.#invalid = err;
      return;
    }
    if (signal?.aborted) return;
    this.#wakes = membership.attach(this.#project, this);
    if (this.#wakes) signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get cursor(): number {
    return this.#cursor;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<JournalEntry, undefined>> {
    const result = this.#queue.then(() => this.#next());
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /** Ends the feed now, waking a `next()` that waits (it resolves done). */
  async return(): Promise<IteratorResult<JournalEntry, undefined>> {
    const wakes = this.#wakes;
    if (wakes === null) return DONE;
    this.#wakes = null;
    this.#page = EMPTY;
    const waiter = this.#waiter;
    if (waiter) {
      wakes.waiters.delete(waiter);
      waiter.wake();
    }
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#membership.detach(this.#project, this);
    return DONE;
  }

  async #next(): Promise<IteratorResult<JournalEntry, undefined>> {
    if (this.#invalid !== undefined) {
      const invalid = this.#invalid;
      this.#invalid = undefined;
      throw invalid;
    }
    for (;;) {
      const wakes = this.#wakes;
      if (wakes === null) return DONE;
      if (this.#index < this.#page.length) {
        const entry = this.#page[this.#index++]!;
        this.#cursor = entry.seq;
        return { done: false, value: entry };
      }
      this.#page = EMPTY;
      this.#index = 0;
      const generation = wakes.generation;
      let read: Promise<JournalEntry[]> | undefined;
      let page: JournalEntry[];
      try {
        read = sharedRead(
          this.#reader,
          wakes,
          this.#project,
          this.#cursor,
          this.#limit,
          this.#bytes,
        );
        page = await read;
      } catch (err) {
        if (!isTransientStoreError(err)) {
          await this.return();
          throw err;
        }
        // The store refuses for now: read again after a pause, or sooner when woken.
        this.#jitter = read === undefined ? Math.random() : wakes.jitterOf(read);
        await this.#wait(wakes, this.#retry.next());
        continue;
      }
      this.#retry.reset();
      if (this.#wakes === null) return DONE;
      if (page.length > 0) {
        this.#page = page;
        continue;
      }
      // A wake-up while the read ran may be for an entry it did not see: read again.
      if (wakes.generation !== generation) continue;
      await this.#wait(wakes);
    }
  }

  /** Waits for a wake-up past the cursor (or `return()`), or `ms` at most. */
  async #wait(wakes: ProjectWakes, ms?: number): Promise<void> {
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        cursor: this.#cursor,
        wake: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.#waiter = waiter;
      wakes.waiters.add(waiter);
      if (ms === undefined) return;
      timer = setTimeout(() => {
        wakes.waiters.delete(waiter);
        resolve();
      }, ms);
      timer.unref();
    });
    this.#waiter = null;
  }
}
