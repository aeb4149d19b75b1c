// The live journal feed (`journal.follow`) on both engines: it resumes after a seq, wakes on appends of
// every commit path, hands out each entry once in order to many followers, holds at most one page for a
// follower that does not consume, and lets go at once on return/break/abort/close. Across stores (as
// across processes): a second journal on the same database wakes it — PostgreSQL through the NOTIFY it
// sends after each commit (also after the follower's LISTEN connection was killed, and through the
// safety poll when the announcement never came), SQLite through the poll of followed heads. No timed
// assertions: every wait is for an entry, under the suite's timeout.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { CanonryError, type ErrorCode } from '../../src/core/index.js';
import { Journal, type JournalEntry, type JournalFollower } from '../../src/journal/index.js';
import { PostgresStore, type Store } from '../../src/store/index.js';
import { count } from '../helpers/journal.js';
import { outageProxy } from '../helpers/outage-proxy.js';
import { ENGINES, PG_URL } from '../helpers/stores.js';

/** The next `n` entries of a follower. */
async function take(follower: JournalFollower, n: number): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  while (out.length < n) {
    const next = await follower.next();
    if (next.done) throw new Error(`the feed ended after ${out.length} of ${n}`);
    out.push(next.value);
  }
  return out;
}

const seqs = (entries: readonly JournalEntry[]) => entries.map((e) => e.seq);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The stored bytes of an entry row (`SELECT_ENTRIES` order): body, authority and receipt. */
const rowBytes = (row: readonly unknown[]) =>
  [row[5], row[7], row[10]].reduce<number>((n, text) => n + Buffer.byteLength(String(text)), 0);

/**
 * The store, with the journal rows each `values` call returned counted (the feed reads entries with
 * `read`, which uses `values`): what a follower has pulled out of the database, and each read's
 * stored bytes.
 */
function counted(store: Store): { store: Store; rows: () => number; pages: () => number[][] } {
  let rows = 0;
  const pages: number[][] = [];
  const proxy = new Proxy(store, {
    get(target, key) {
      if (key === 'values') {
        return async (sql: string, params?: never) => {
          const out = await target.values(sql, params);
          if (sql.includes('FROM journal_entries')) {
            rows += out.length;
            pages.push(out.map((row) => rowBytes(row as unknown[])));
          }
          return out;
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, rows: () => rows, pages: () => pages };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return err instanceof CanonryError ? err.code : `untyped: ${err}`;
  }
  return 'OK';
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`journal.follow on ${engine.name}`, () => {
    const closers: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const close of closers.splice(0).reverse()) await close();
    });
    const open = async () => {
      const fresh = await engine.fresh();
      const watched = counted(fresh.store);
      const journal = new Journal(watched.store);
      closers.push(
        fresh.cleanup,
        () => fresh.store.close(),
        () => journal.close(),
      );
      return { ...fresh, journal, rows: watched.rows, pages: watched.pages };
    };

    it('starts after the given seq and wakes on later appends, each entry once and in order', async () => {
      const { journal } = await open();
      for (let i = 1; i <= 5; i++) await journal.append('alpha', count('x', i));
      const follower = journal.follow('alpha', { after: 2 });
      const first = await take(follower, 3);
      expect(seqs(first)).toEqual([3, 4, 5]);
      expect(first[0]).toEqual((await journal.read('alpha', { after: 2, limit: 1 }))[0]);
      // Waiting now: the next append wakes it.
      const waiting = follower.next();
      await journal.append('alpha', count('x', 6));
      const woken = await waiting;
      expect(woken.done).toBe(false);
      expect(woken.value?.seq).toBe(6);
      expect(follower.cursor).toBe(6);
      await follower.return();
    });

    it('wakes on every commit path: one-statement, batch, idempotent, expected seq, concurrent', async () => {
      const { journal } = await open();
      const follower = journal.follow('alpha');
      const seen = take(follower, 40);
      await journal.append('alpha', count('a'));
      await journal.append('alpha', count('b'));
      await journal.appendAll('alpha', [count('c'), count('d'), count('e')]);
      await journal.append('alpha', count('f', 1, { idempotency_key: 'k-1' }));
      await journal.append('alpha', count('f', 1, { idempotency_key: 'k-1' })); // a repeat: nothing
      await journal.append('alpha', count('g'), { expectedSeq: 6 });
      await Promise.all(range(1, 33).map((i) => journal.append('alpha', count(`p${i}`))));
      const entries = await seen;
      expect(seqs(entries)).toEqual(range(1, 40));
      for (let i = 1; i < entries.length; i++)
        expect(entries[i]!.prev_hash).toBe(entries[i - 1]!.hash);
      await follower.return();
    });

    it('many followers of one project each get every entry once; another project stays silent', async () => {
      const { journal } = await open();
      await journal.append('beta', count('before'));
      const followers = range(1, 50).map(() => journal.follow('alpha'));
      const other = journal.follow('beta', { after: 1 });
      const otherNext = other.next();
      const all = Promise.all(followers.map((f) => take(f, 30)));
      for (let round = 0; round < 3; round++) {
        await Promise.all(
          range(1, 10).map((i) => journal.append('alpha', count(`r${round}-${i}`))),
        );
      }
      for (const got of await all) expect(seqs(got)).toEqual(range(1, 30));
      // beta's follower is still waiting: none of alpha's entries reached it.
      const marker = await journal.append('beta', count('after'));
      expect((await otherNext).value).toEqual(marker.entry);
      for (const f of [...followers, other]) await f.return();
    });

    it('holds at most one page for a follower that does not consume: reads are pulled, not pushed', async () => {
      const { journal, rows } = await open();
      for (let i = 1; i <= 20; i++) await journal.append('alpha', count('x', i));
      const before = rows();
      const slow = journal.follow('alpha', { limit: 5 });
      expect((await slow.next()).value?.seq).toBe(1);
      expect(rows() - before).toBe(5);
      // 100 more commits wake it, but it is not waiting: nothing more is read for it.
      await Promise.all(range(1, 100).map(() => journal.append('alpha', count('y'))));
      await settle();
      expect(rows() - before).toBe(5);
      // Consuming pulls the rest a page at a time, each entry read once.
      expect(seqs(await take(slow, 119))).toEqual(range(2, 120));
      expect(rows() - before).toBe(120);
      await slow.return();
    });

    it('return, break, an abort signal and close let go at once, also while waiting', async () => {
      const { journal, rows } = await open();
      await journal.append('alpha', count('x'));
      const waiting = journal.follow('alpha', { after: 1 });
      const pending = waiting.next();
      await settle();
      await waiting.return();
      expect(await pending).toEqual({ done: true, value: undefined });
      expect(await waiting.next()).toEqual({ done: true, value: undefined });

      const seen: number[] = [];
      for await (const entry of journal.follow('alpha')) {
        seen.push(entry.seq);
        break;
      }
      expect(seen).toEqual([1]);

      const abort = new AbortController();
      const aborted = journal.follow('alpha', { after: 1, signal: abort.signal });
      const abortedNext = aborted.next();
      await settle();
      abort.abort();
      expect((await abortedNext).done).toBe(true);

      // None of them reads again: appends wake nobody.
      const before = rows();
      for (let i = 0; i < 5; i++) await journal.append('alpha', count('z'));
      await settle();
      expect(rows()).toBe(before);

      const last = journal.follow('alpha', { after: 6 });
      const closing = last.next();
      await settle();
      await journal.close();
      expect((await closing).done).toBe(true);
      expect((await journal.follow('alpha').next()).done).toBe(true);
    });

    it('bounds a page by bytes as well as entries (2 MiB by default), always at least one entry', async () => {
      const { journal, pages } = await open();
      // Eight entries of ~600 KB: 100 to a page by count would be 4.8 MB in one read.
      const big = (i: number) => ({
        ...count('big', i),
        body: { name: 'x'.repeat(600_000), by: i },
      });
      for (let i = 1; i <= 8; i++) await journal.append('alpha', big(i));
      const before = pages().length;
      const follower = journal.follow('alpha');
      const got = await take(follower, 8);
      expect(seqs(got)).toEqual(range(1, 8));
      expect(got.map((e) => (e.body as { by: number }).by)).toEqual(range(1, 8));
      const read = pages().slice(before);
      for (const page of read) {
        expect(page.length).toBeGreaterThanOrEqual(1);
        expect(page.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2 * 1024 * 1024);
      }
      // Three ~600 KB entries fit in 2 MiB, a fourth does not.
      expect(read.map((page) => page.length)).toEqual([3, 3, 2]);
      // A budget smaller than one entry still makes progress: one entry a page, resumed at the cursor.
      const small = journal.follow('alpha', { after: 5, bytes: 1_024 });
      const mark = pages().length;
      expect(seqs(await take(small, 3))).toEqual([6, 7, 8]);
      expect(
        pages()
          .slice(mark)
          .map((page) => page.length),
      ).toEqual([1, 1, 1]);
      await Promise.all([follower.return(), small.return()]);
    });

    /**
     * A journal whose entry reads fail with `fault` while it is set, each after `delayMs` (a read
     * in flight, as over a network), counting failed and served reads.
     */
    const faultyJournal = async (delayMs = 0) => {
      const fresh = await engine.fresh();
      const state = { fault: null as CanonryError | null, failed: 0, served: 0 };
      const faulty = new Proxy(fresh.store, {
        get(target, key) {
          if (key === 'values') {
            return async (sql: string, params?: never) => {
              if (!sql.startsWith('SELECT project, seq, format')) return target.values(sql, params);
              if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
              if (state.fault) {
                state.failed++;
                throw state.fault;
              }
              state.served++;
              return target.values(sql, params);
            };
          }
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const journal = new Journal(faulty);
      closers.push(
        fresh.cleanup,
        () => fresh.store.close(),
        () => journal.close(),
      );
      return { journal, state };
    };
    it('outlives reads that fail while the store is unreachable (tried again with backoff), and ends on any other failed read', async () => {
      const { journal, state } = await faultyJournal();
      await journal.append('alpha', count('one'));
      state.fault = new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable');
      const follower = journal.follow('alpha');
      const first = follower.next();
      await new Promise((r) => setTimeout(r, 1_000));
      // 100 ms, 200 ms, 400 ms, …: a few tries in a second, not a busy loop.
      expect(state.failed).toBeGreaterThanOrEqual(2);
      expect(state.failed).toBeLessThanOrEqual(6);
      state.fault = null;
      expect((await first).value?.seq).toBe(1);
      // Anything else is the feed's end: the failure rejects next(), and the follower is done.
      state.fault = new CanonryError('STORE_CORRUPT', 'a row does not parse');
      const second = follower.next();
      await journal.append('alpha', count('two'));
      expect(await codeOf(second)).toBe('STORE_CORRUPT');
      expect(await follower.next()).toEqual({ done: true, value: undefined });
      expect(follower.cursor).toBe(1);
    });

    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((r) => setTimeout(r, 10));
    };

    it('outlives reads refused for a lock or a full disk (STORE_BUSY, STORE_FULL) as it does an outage', async () => {
      const { journal, state } = await faultyJournal();
      await journal.appendAll('alpha', [count('one'), count('two')]);
      const follower = journal.follow('alpha', { limit: 1 });
      for (const code of ['STORE_BUSY', 'STORE_FULL'] as const) {
        state.fault = new CanonryError(code);
        state.failed = 0;
        const next = follower.next();
        let settled = false;
        next.then(
          () => (settled = true),
          () => (settled = true),
        );
        await until(() => state.failed >= 2 || settled);
        expect(settled, `${code} ended the feed`).toBe(false);
        state.fault = null;
        expect((await next).value?.seq, code).toBe(code === 'STORE_BUSY' ? 1 : 2);
      }
      await follower.return();
    });

    it('followers that failed on one read retry in step: once the store is back, one read serves them all', async () => {
      const { journal, state } = await faultyJournal(20);
      await journal.append('alpha', count('one'));
      state.fault = new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable');
      const followers = Array.from({ length: 20 }, () => journal.follow('alpha'));
      const firsts = followers.map((f) => f.next());
      // Three rounds of retries, each one read shared by all twenty (jittered pauses drawn per read).
      await until(() => state.failed >= 3);
      state.fault = null;
      for (const first of firsts) expect((await first).value?.seq).toBe(1);
      expect(state.served).toBe(1);
      await Promise.all(followers.map((f) => f.return()));
    });

    it('refuses bad options as typed rejections of the first next(), never a synchronous throw', async () => {
      const { journal } = await open();
      const bad = [
        journal.follow('Not A Project'),
        journal.follow('alpha', { after: -1 }),
        journal.follow('alpha', { after: 1.5 }),
        journal.follow('alpha', { limit: 0 }),
        journal.follow('alpha', { limit: 1_001 }),
        journal.follow('alpha', { bytes: 1_023 }),
        journal.follow('alpha', { bytes: 64 * 1024 * 1024 + 1 }),
      ];
      expect(await Promise.all(bad.map((f) => codeOf(f.next())))).toEqual([
        'INVALID_PROJECT',
        'INVALID_ARGUMENT',
        'INVALID_ARGUMENT',
        'INVALID_ARGUMENT',
        'INVALID_ARGUMENT',
        'INVALID_ARGUMENT',
        'INVALID_ARGUMENT',
      ]);
    });

    it('wakes on entries another journal on the same database commits', async () => {
      const { journal, location, reopen } = await open();
      const otherStore = reopen();
      const other = new Journal(otherStore);
      closers.push(
        () => otherStore.close(),
        () => other.close(),
      );
      await journal.append('alpha', count('mine'));
      const follower = journal.follow('alpha');
      expect(seqs(await take(follower, 1))).toEqual([1]);
      const waiting = take(follower, 3);
      await other.append('alpha', count('theirs'));
      await other.appendAll('alpha', [count('theirs'), count('theirs')]);
      const got = await waiting;
      expect(seqs(got)).toEqual([2, 3, 4]);
      expect(got.map((e) => (e.body as { name: string }).name)).toEqual([
        'theirs',
        'theirs',
        'theirs',
      ]);
      expect(location).toBeTruthy();
      await follower.return();
    });
  });
}

const postgres = ENGINES.find((e) => e.name === 'postgres')!;

describe.skipIf(!postgres.available)('journal.follow over LISTEN/NOTIFY', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** Two journals on one fresh schema, each with its own pool; the first's connections are named. */
  async function twoJournals() {
    const fresh = await postgres.fresh();
    await fresh.store.close();
    const name = `canonry_feed_${randomBytes(4).toString('hex')}`;
    const stores = [
      new PostgresStore({ connectionString: `${fresh.location}&application_name=${name}` }),
      new PostgresStore({ connectionString: fresh.location }),
    ] as const;
    const journals = stores.map((s) => new Journal(s)) as [Journal, Journal];
    closers.push(fresh.cleanup, ...stores.map((s) => () => s.close()));
    closers.push(...journals.map((j) => () => j.close()));
    return { journals, name, location: fresh.location };
  }

  /** The backends of the named pool that are listening (their last statement was LISTEN). */
  async function listeners(name: string): Promise<number[]> {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
        [name],
      );
      return rows.map((r: { pid: number }) => r.pid);
    } finally {
      await admin.end();
    }
  }

  async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    for (;;) {
      const value = await probe();
      if (ok(value)) return value;
      await settle();
    }
  }

  it('still delivers a commit whose announcement never came (its writer died before NOTIFY)', async () => {
    const { journals } = await twoJournals();
    const [mine, theirs] = journals;
    // A writer that commits and never announces: the store without its notifications.
    const silentStore = new Proxy(theirs.store, {
      get(target, key) {
        if (key === 'notifications') return undefined;
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const silent = new Journal(silentStore);
    closers.push(() => silent.close());
    const follower = mine.follow('alpha');
    const got = take(follower, 2);
    await silent.appendAll('alpha', [count('unannounced'), count('unannounced')]);
    expect(seqs(await got)).toEqual([1, 2]);
    await follower.return();
  });

  it('shares one LISTEN connection among all followers of all projects', async () => {
    const { journals, name } = await twoJournals();
    const [mine, theirs] = journals;
    const followers = [
      ...range(1, 20).map(() => mine.follow('alpha')),
      ...range(1, 5).map(() => mine.follow('beta')),
    ];
    const got = Promise.all(followers.map((f) => take(f, 2)));
    expect(
      await until(
        () => listeners(name),
        (pids) => pids.length > 0,
      ),
    ).toHaveLength(1);
    await theirs.appendAll('alpha', [count('a'), count('b')]);
    await theirs.appendAll('beta', [count('a'), count('b')]);
    for (const entries of await got) expect(seqs(entries)).toEqual([1, 2]);
    expect(await listeners(name)).toHaveLength(1);
    for (const f of followers) await f.return();
  });

  it('re-reads from every cursor after its LISTEN connection is killed: nothing committed meanwhile is lost', async () => {
    const { journals, name } = await twoJournals();
    const [mine, theirs] = journals;
    const follower = mine.follow('alpha');
    const first = take(follower, 1);
    const [pid] = await until(
      () => listeners(name),
      (pids) => pids.length === 1,
    );
    await theirs.append('alpha', count('one'));
    expect(seqs(await first)).toEqual([1]);

    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    // Committed while nobody listened: the NOTIFY is lost, the reset on reconnect finds it.
    await theirs.appendAll('alpha', [count('two'), count('three')]);
    expect(seqs(await take(follower, 2))).toEqual([2, 3]);
    const [again] = await until(
      () => listeners(name),
      (pids) => pids.length === 1 && pids[0] !== pid,
    );
    expect(again).not.toBe(pid);
    // And listening again: the next commit wakes it too.
    const next = take(follower, 1);
    await theirs.append('alpha', count('four'));
    expect(seqs(await next)).toEqual([4]);
    await follower.return();
  });

  /**
   * A journal on `url` whose head reads fail: the feed's safety poll (every 5 s, the fallback for a
   * lost announcement) finds nothing through it, so what reaches its followers came by LISTEN or by
   * the re-read a reconnected LISTEN makes.
   */
  function journalWithoutSafetyPoll(url: string, onError?: (err: unknown) => void) {
    const store = new PostgresStore({ connectionString: url });
    const blind = new Proxy(store, {
      get(target, key) {
        if (key === 'all') {
          return async (sql: string, params?: never) => {
            if (sql.includes('FROM journal_heads')) throw new Error('blind to heads');
            return target.all(sql, params);
          };
        }
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const journal = new Journal(blind, onError ? { onError } : {});
    closers.push(
      () => store.close(),
      () => journal.close(),
    );
    return journal;
  }

  /** Whether the backend `pid` is gone (pg_terminate_backend only signals it). */
  async function gone(pid: number): Promise<boolean> {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
      return rows.length === 0;
    } finally {
      await admin.end();
    }
  }

  it('after its LISTEN backend is killed, listens again and re-reads from the cursor, with no safety poll to fall back on', async () => {
    const { journals, name, location } = await twoJournals();
    const theirs = journals[1];
    const mine = journalWithoutSafetyPoll(`${location}&application_name=${name}_blind`);
    const follower = mine.follow('alpha');
    const first = take(follower, 1);
    const [pid] = await until(
      () => listeners(`${name}_blind`),
      (pids) => pids.length === 1,
    );
    await theirs.append('alpha', count('one'));
    expect(seqs(await first)).toEqual([1]);

    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'",
      [`${name}_blind`],
    );
    await admin.end();
    await until(
      () => gone(pid!),
      (yes) => yes,
    );
    // Committed while nothing of `mine` listened: only the re-read on listening again finds them.
    await theirs.appendAll('alpha', [count('two'), count('three')]);
    expect(seqs(await take(follower, 2))).toEqual([2, 3]);
    expect(follower.cursor).toBe(3);
    const next = take(follower, 1);
    await theirs.append('alpha', count('four'));
    expect(seqs(await next)).toEqual([4]);
    await follower.return();
  });

  it('through a database outage (connections cut, then refused, then back): the follower keeps its place and misses nothing, LISTEN retries with backoff, one error is reported, without the password', async () => {
    const { journals, location } = await twoJournals();
    const theirs = journals[1];
    const proxy = await outageProxy();
    closers.push(() => proxy.close());
    const url = proxy.via(location);
    // The test server trusts loopback, so any password is taken; a CI server's own is kept.
    const secret = new URL(PG_URL).password || `pw-${randomBytes(8).toString('hex')}`;
    url.password = secret;
    const errors: unknown[] = [];
    const mine = journalWithoutSafetyPoll(url.toString(), (err) => errors.push(err));
    const follower = mine.follow('alpha');
    const first = take(follower, 1);
    await theirs.append('alpha', count('one'));
    expect(seqs(await first)).toEqual([1]);
    expect(errors).toEqual([]);

    proxy.cut();
    // Committed while `mine` cannot reach the database at all.
    await theirs.appendAll('alpha', [count('two'), count('three')]);
    await new Promise((r) => setTimeout(r, 2_000));
    // Backoff from 100 ms, doubling: a handful of attempts in 2 s, not a busy loop.
    expect(proxy.refused()).toBeGreaterThanOrEqual(2);
    expect(proxy.refused()).toBeLessThanOrEqual(8);
    // Told once for the whole run of failures, typed, and never with the password.
    expect(errors).toHaveLength(1);
    const [err] = errors as CanonryError[];
    expect(err).toBeInstanceOf(CanonryError);
    expect(err!.code).toBe('STORE_UNAVAILABLE' satisfies ErrorCode);
    expect(err!.message).toMatch(/notifications/);
    // The pause it reports is the first one, jittered: 50–100 ms.
    expect(err!.details?.retry_in_ms).toBeGreaterThanOrEqual(50);
    expect(err!.details?.retry_in_ms).toBeLessThanOrEqual(100);
    const told = `${err!.message} ${err!.stack} ${JSON.stringify(err)} ${JSON.stringify(err!.details)}`;
    expect(told).not.toContain(secret);
    const waiting = take(follower, 2);

    proxy.restore();
    expect(seqs(await waiting)).toEqual([2, 3]);
    const next = take(follower, 1);
    await theirs.append('alpha', count('four'));
    expect(seqs(await next)).toEqual([4]);
    expect(errors).toHaveLength(1);
    await follower.return();
  });

  it('listens on a channel whose first handler came while the connection was still opening', async () => {
    const { journals } = await twoJournals();
    const [mine, theirs] = journals;
    const heard: string[] = [];
    const ready: string[] = [];
    const a = `t_${randomBytes(4).toString('hex')}_a`;
    const b = `t_${randomBytes(4).toString('hex')}_b`;
    const handlers = (channel: string) => ({
      message: (payload: string) => heard.push(`${channel}:${payload}`),
      reset: () => ready.push(channel),
    });
    // The first handler opens the connection; the second channel's arrives before it listens.
    const stops = [mine.store.notifications!.listen(a, handlers(a))];
    stops.push(mine.store.notifications!.listen(b, handlers(b)));
    await until(
      async () => ready.length,
      (n) => n >= 2,
    );
    expect(ready.sort()).toEqual([a, b].sort());
    // Notifications arrive in the order their transactions committed: once `a` is heard, so was `b`.
    await theirs.store.notifications!.notify(b, ['first']);
    await theirs.store.notifications!.notify(a, ['second']);
    await until(
      async () => heard.includes(`${a}:second`),
      (yes) => yes,
    );
    expect(heard).toEqual([`${b}:first`, `${a}:second`]);
    for (const stop of stops) stop();
  });
});
