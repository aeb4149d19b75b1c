// A PostgreSQL store whose database goes silent (a partition, a frozen host: connections stay open,
// nothing is answered) behind a TCP proxy (test/helpers/outage-proxy.ts `hang`). Every statement,
// transaction and new connection fails typed (STORE_UNAVAILABLE) within its bound — the URL's
// `query_timeout` and `connect_timeout`, short here — instead of waiting for the network, and the
// store works again once the database answers, with nothing to restart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { PostgresStore } from '../../src/store/index.js';
import { type OutageProxy, outageProxy } from '../helpers/outage-proxy.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const QUERY_TIMEOUT_MS = 500;
let proxy: OutageProxy;
let store: PostgresStore;
let drop: () => Promise<void>;
/** The schema's URL through the proxy, with the short timeouts. */
let url: string;

/** What `work` ended with and after how long; a bound keeps a hanging store from hanging the test. */
async function timed(work: () => Promise<unknown>, bound = 5_000) {
  const started = Date.now();
  const outcome = await Promise.race([
    work().then(
      () => ({ ok: true as const }),
      (err: unknown) => ({ ok: false as const, err }),
    ),
    new Promise<{ ok: false; err: 'hung' }>((resolve) =>
      setTimeout(() => resolve({ ok: false, err: 'hung' }), bound),
    ),
  ]);
  return { ...outcome, ms: Date.now() - started };
}

function expectUnavailable(outcome: Awaited<ReturnType<typeof timed>>, within: number) {
  expect(outcome.ok).toBe(false);
  const err = (outcome as { err: unknown }).err;
  expect(err).toBeInstanceOf(CanonryError);
  expect((err as CanonryError).code).toBe('STORE_UNAVAILABLE');
  expect((err as CanonryError).message).toBe('the database did not answer in time');
  expect(outcome.ms).toBeLessThan(within);
}

describe.skipIf(!postgresAvailable)('a PostgreSQL store whose database goes silent', () => {
  beforeEach(async () => {
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    proxy = await outageProxy();
    const through = proxy.via(schema.url);
    through.searchParams.set('query_timeout', String(QUERY_TIMEOUT_MS));
    through.searchParams.set('connect_timeout', '1');
    url = through.toString();
    store = new PostgresStore({ connectionString: url, max: 2 });
    await store.exec('CREATE TABLE t (x INT)');
  });
  afterEach(async () => {
    proxy.restore();
    await store.close();
    await proxy.close();
    await drop();
  });

  it('answers a statement and a transaction on a silent connection STORE_UNAVAILABLE within one query timeout, and works again after', async () => {
    // Both connections of the pool open, so neither of the two below has to open one.
    await Promise.all([1, 2].map(() => store.all('SELECT pg_sleep(0.05)')));
    proxy.hang();
    expectUnavailable(await timed(() => store.all('SELECT 1 AS one')), 1_500);
    // One timeout, not two: no ROLLBACK is sent after the statement that was not answered.
    expectUnavailable(
      await timed(() => store.transaction((tx) => tx.run('INSERT INTO t (x) VALUES ($1)', [1]))),
      QUERY_TIMEOUT_MS * 2,
    );
    proxy.restore();
    expect(await store.all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await store.transaction((tx) => tx.run('INSERT INTO t (x) VALUES ($1)', [2]));
    // The transaction that timed out was never committed.
    expect(await store.all('SELECT x FROM t ORDER BY x')).toEqual([{ x: 2 }]);
  });

  it('answers STORE_UNAVAILABLE within the connect timeout when no connection can be opened, and works again after', async () => {
    // The pool's connections are all dropped (and reopened on demand): a fresh store's situation.
    proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 100));
    proxy.hang();
    expectUnavailable(await timed(() => store.all('SELECT 1 AS one')), 2_500);
    expectUnavailable(
      await timed(() => store.transaction((tx) => tx.all('SELECT 1 AS one'))),
      2_500,
    );
    proxy.restore();
    expect(await store.all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('lets migrations (exclusive transactions) wait and work past the query timeout; nothing else may', async () => {
    // A migration may wait for another process's, or build an index for longer than the bound.
    const slow = (exclusive: boolean) =>
      store.transaction(
        async (tx) => {
          await tx.all('SELECT pg_sleep(0.8)');
          await tx.run('INSERT INTO t (x) VALUES (1)');
        },
        { exclusive },
      );
    const first = timed(() => slow(true));
    await new Promise((r) => setTimeout(r, 100));
    // The second waits for the first's lock (~0.7 s), then sleeps too: ~1.5 s in all, both commit.
    const second = await timed(() => slow(true));
    expect(await first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    expect(second.ms).toBeGreaterThan(1_200);
    expectUnavailable(await timed(() => slow(false)), 2_000);
    expect(await store.all('SELECT count(*)::int AS n FROM t')).toEqual([{ n: 2 }]);
  });

  it('notices a listening connection gone silent by its heartbeat, reports it, and listens again once the database answers', async () => {
    const HEARTBEAT_MS = 200;
    const listener = new PostgresStore({
      connectionString: url,
      max: 1,
      listenHeartbeatMs: HEARTBEAT_MS,
    });
    const seen: { resets: number; errors: unknown[]; messages: string[] } = {
      resets: 0,
      errors: [],
      messages: [],
    };
    const until = async (what: () => boolean, bound: number) => {
      const started = Date.now();
      while (!what() && Date.now() - started < bound) await new Promise((r) => setTimeout(r, 10));
      return Date.now() - started;
    };
    try {
      const stop = listener.notifications!.listen('canonry_silent', {
        message: (payload) => seen.messages.push(payload),
        reset: () => seen.resets++,
        error: (err) => seen.errors.push(err),
      });
      expect(await until(() => seen.resets === 1, 5_000)).toBeLessThan(5_000);
      proxy.hang();
      // Kernel keepalive would take minutes; the heartbeat's unanswered query takes two periods.
      const noticed = await until(() => seen.errors.length > 0, 3_000);
      expect(seen.errors).toHaveLength(1);
      expect(noticed).toBeLessThan(HEARTBEAT_MS * 2 + 1_000);
      const err = seen.errors[0] as CanonryError;
      expect(err).toBeInstanceOf(CanonryError);
      expect(err.code).toBe('STORE_UNAVAILABLE');
      expect(err.message).toContain(`no answer to a heartbeat within ${HEARTBEAT_MS} ms`);
      expect(seen.resets).toBe(1);
      proxy.restore();
      // Listening again (a reconnect told as `reset`), and what is sent now arrives.
      expect(await until(() => seen.resets === 2, 8_000)).toBeLessThan(8_000);
      await store.notifications!.notify('canonry_silent', ['after']);
      expect(await until(() => seen.messages.includes('after'), 3_000)).toBeLessThan(3_000);
      // Still listening a few heartbeats later: a healthy connection is not dropped.
      await new Promise((r) => setTimeout(r, HEARTBEAT_MS * 4));
      expect(seen.resets).toBe(2);
      expect(seen.errors).toHaveLength(1);
      stop();
    } finally {
      await listener.close();
    }
  });
});
