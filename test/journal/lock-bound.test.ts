// Appends behind a head lock another session holds past the store's lock bound (PostgreSQL): a
// lone plain append, a group of plain appends (one statement) and appends that decide under the
// lock (transactions) each fail once with STORE_BUSY, within one bound, nothing written — never
// tried again alone or in a transaction, which would wait the bound out once more per job — and
// the journal appends from its head once the lock is released.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { Journal, verifyProject } from '../../src/journal/index.js';
import { PostgresStore, type Store } from '../../src/store/index.js';
import { holdLock, untilWaitingForALock } from '../helpers/pg-locks.js';
import { ENGINES } from '../helpers/stores.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;
/** The answer timeout of the journal's store; the store's lock bound is 4/5 of it. */
const QUERY_TIMEOUT_MS = 1_000;
const LOCK_BOUND_MS = 800;
/** Past one bound, what a slow machine may add; well short of a second bound. */
const SLACK_MS = 600;

describe.skipIf(!postgres.available)('appends behind a head lock held past the bound', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  });

  async function journalOn() {
    const made = await postgres.fresh();
    closers.push(async () => {
      await made.store.close();
      await made.cleanup();
    });
    const url = new URL(made.location);
    url.searchParams.set('query_timeout', String(QUERY_TIMEOUT_MS));
    const store = new PostgresStore({ connectionString: url.toString() });
    const journal = new Journal(store);
    closers.push(() => journal.close().then(() => store.close()));
    const count = async () =>
      Number(
        (
          await made.store.all<{ n: number }>(
            "SELECT count(*)::int AS n FROM journal_entries WHERE project = 'held'",
          )
        )[0]!.n,
      );
    return { journal, store, direct: made.store, count };
  }

  const entry = (i: number) => ({ kind: 'x.y', body: { i }, actor: 'a' });

  /** Runs `appends` while the head is locked; their failures, and how long the last took. */
  async function behindTheLock(
    direct: Store,
    appends: () => Promise<unknown>[],
  ): Promise<{ failures: unknown[]; ms: number }> {
    const lock = holdLock(
      direct,
      "SELECT seq FROM journal_heads WHERE project = 'held' FOR UPDATE",
    );
    await lock.held;
    const started = performance.now();
    const settled = await Promise.allSettled(appends());
    const ms = performance.now() - started;
    lock.release();
    await lock.done;
    return { failures: settled.map((s) => (s.status === 'rejected' ? s.reason : s.value)), ms };
  }

  function expectBusy(failures: unknown[]): void {
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(CanonryError);
      expect((failure as CanonryError).code).toBe('STORE_BUSY');
    }
  }

  it('fails a lone plain append, a group, and appends that decide under the lock once, within the bound', async () => {
    const { journal, direct, count } = await journalOn();
    await journal.append('held', entry(0));
    await journal.append('held', entry(1));

    const lone = await behindTheLock(direct, () => [journal.append('held', entry(2))]);
    expectBusy(lone.failures);
    expect(lone.ms).toBeLessThan(LOCK_BOUND_MS + SLACK_MS);

    const group = await behindTheLock(direct, () =>
      [3, 4, 5, 6].map((i) => journal.append('held', entry(i))),
    );
    expectBusy(group.failures);
    expect(group.ms).toBeLessThan(LOCK_BOUND_MS + SLACK_MS);

    const deciding = await behindTheLock(direct, () =>
      [7, 8, 9].map((i) => journal.append('held', { ...entry(i), idempotency_key: `k${i}` })),
    );
    expectBusy(deciding.failures);
    expect(deciding.ms).toBeLessThan(LOCK_BOUND_MS + SLACK_MS);
    console.log(
      `behind the lock: lone ${Math.round(lone.ms)} ms, group ${Math.round(group.ms)} ms, in transactions ${Math.round(deciding.ms)} ms`,
    );

    expect(await count()).toBe(2);
    const next = await journal.append('held', entry(10));
    expect(next.entry.seq).toBe(3);
    expect((await verifyProject(journal, 'held')).ok).toBe(true);
  }, 30_000);

  it('fails the appends queued behind one that waited out the bound with it, untried', async () => {
    const { journal, store, direct, count } = await journalOn();
    await journal.append('held', entry(0));
    const lock = holdLock(
      direct,
      "SELECT seq FROM journal_heads WHERE project = 'held' FOR UPDATE",
    );
    await lock.held;
    const sent = [vi.spyOn(store, 'run'), vi.spyOn(store, 'transaction'), vi.spyOn(store, 'all')];
    const first = journal.append('held', entry(1)).catch((err: unknown) => err);
    await untilWaitingForALock(direct);
    // Queued while the first waits at the lock: plain ones and ones that decide under it.
    const queued = [
      journal.append('held', entry(2)),
      journal.append('held', { ...entry(3), idempotency_key: 'k3' }),
      journal.append('held', entry(4)),
    ].map((p) => p.catch((err: unknown) => err));
    const failures = [await first, ...(await Promise.all(queued))];
    const tries = sent.reduce((n, spy) => n + spy.mock.calls.length, 0);
    for (const spy of sent) spy.mockRestore();
    lock.release();
    await lock.done;
    expectBusy(failures);
    // One statement went to the database: the first append's. Each queued one would have waited
    // out the bound again, in a transaction of its own.
    expect(tries).toBe(1);
    for (const failure of failures.slice(1)) {
      expect((failure as CanonryError).message).toContain('queued behind it and not tried');
    }
    expect(await count()).toBe(1);
    expect((await journal.append('held', entry(5))).entry.seq).toBe(2);
    expect((await verifyProject(journal, 'held')).ok).toBe(true);
  }, 30_000);
});
