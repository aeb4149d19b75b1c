// A plain append is one autocommit statement on PostgreSQL (alone, or a group together), any other
// a transaction. When the connection breaks after the server ran the statement or the COMMIT and
// before its answer came back, the journal reads the entries back: stored, the appends succeed
// (once). Not stored, the session that ran them is ended, and read again: still not stored, they
// run again (once); when nothing settles it, the failure says their outcome is unknown, never that
// nothing was written. The SQLite writer thread's case is in background-writer.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal, verifyProject } from '../../src/journal/index.js';
import { PostgresStore } from '../../src/store/index.js';
import { outageProxy } from '../helpers/outage-proxy.js';
import { holdLock, untilWaitingForALock } from '../helpers/pg-locks.js';
import { ENGINES } from '../helpers/stores.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;

describe.skipIf(!postgres.available)('plain appends whose answer PostgreSQL lost', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  });

  /**
   * A journal reaching the database through an outage proxy, and a direct reader of its rows;
   * `queryTimeoutMs` bounds how long its store waits for an answer.
   */
  async function throughProxy(queryTimeoutMs?: number) {
    const made = await postgres.fresh();
    closers.push(async () => {
      await made.store.close();
      await made.cleanup();
    });
    const proxy = await outageProxy();
    closers.push(() => proxy.close());
    const url = proxy.via(made.location);
    if (queryTimeoutMs !== undefined) {
      url.searchParams.set('query_timeout', String(queryTimeoutMs));
      url.searchParams.set('connect_timeout', '1');
    }
    const store = new PostgresStore({ connectionString: url.toString() });
    const journal = new Journal(store);
    closers.push(() => journal.close().then(() => store.close()));
    const rows = async () =>
      (
        await made.store.all<{ seq: number; hash: string; body: string }>(
          "SELECT seq, hash, body FROM journal_entries WHERE project = 'lost' ORDER BY seq",
        )
      ).map((r) => ({ seq: Number(r.seq), hash: r.hash, i: JSON.parse(r.body).i as number }));
    return { journal, proxy, rows, direct: made.store, store };
  }

  const entry = (i: number) => ({ kind: 'x.y', body: { i }, actor: 'a' });

  /** Waits until the database holds `n` entries of the project (read past the proxy). */
  async function until(rows: () => Promise<unknown[]>, n: number) {
    while ((await rows()).length < n) await new Promise((r) => setTimeout(r, 5));
  }

  it('settles a lone append and a group by reading them back: each acknowledged once', async () => {
    const { journal, proxy, rows } = await throughProxy();
    await journal.append('lost', entry(0)); // the head, in a transaction

    // A lone plain append: one statement (head and row), its answer lost, then the connection.
    proxy.loseAnswerTo('{"i":1}');
    const lone = journal.append('lost', entry(1));
    await until(rows, 2);
    proxy.drop();
    const one = await lone;
    expect(one.entry.seq).toBe(2);
    // The pool's other connections broke too: it lets them go before the next append takes one.
    await new Promise((r) => setTimeout(r, 100));

    // A group of plain appends arriving together: one statement for all of them, the same way.
    await journal.append('lost', entry(2));
    proxy.loseAnswerTo('{"i":3}');
    const group = Promise.all([3, 4, 5, 6].map((i) => journal.append('lost', entry(i))));
    await until(rows, 7);
    proxy.drop();
    const four = await group;
    await new Promise((r) => setTimeout(r, 100));

    const stored = await rows();
    expect(stored.map((r) => r.i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(stored.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const bySeq = new Map(stored.map((r) => [r.seq, r.hash]));
    for (const { entry: e } of [one, ...four]) expect(bySeq.get(e.seq)).toBe(e.hash);
    // The journal goes on from the head it settled.
    const next = await journal.append('lost', entry(7));
    expect(next.entry.seq).toBe(8);
    expect((await verifyProject(journal, 'lost')).ok).toBe(true);
  });

  it('settles a transaction whose COMMIT went unanswered by reading its heads back', async () => {
    const { journal, proxy, rows } = await throughProxy();
    await journal.append('lost', entry(0));
    // An append that decides on the head runs in a transaction; its COMMIT's answer is lost.
    proxy.loseAnswerTo('COMMIT');
    const decided = journal.append('lost', entry(1), { expectedSeq: 1 });
    await until(rows, 2);
    proxy.drop();
    const one = await decided;
    expect(one.entry.seq).toBe(2);
    const stored = await rows();
    expect(stored.map((r) => r.i)).toEqual([0, 1]);
    expect(stored[1]!.hash).toBe(one.entry.hash);
    await new Promise((r) => setTimeout(r, 100));
    // The head it settled is the one the journal goes on from.
    const next = await journal.append('lost', entry(2), { expectedSeq: 2 });
    expect(next.entry.seq).toBe(3);
    expect((await verifyProject(journal, 'lost')).ok).toBe(true);
  });

  it('ends the session of a lone append, and of a group, that could not finish before its connection broke, then appends them once', async () => {
    const { journal, proxy, rows, direct } = await throughProxy();
    await journal.append('lost', entry(0));
    // The head row locked by another session: the append's one statement reaches the server and
    // waits there. Its connection breaks; the server does not notice a waiting session's client
    // is gone, and would run the statement once the lock is released.
    const lock = holdLock(
      direct,
      "SELECT seq FROM journal_heads WHERE project = 'lost' FOR UPDATE",
    );
    await lock.held;
    const lone = journal.append('lost', entry(1));
    await untilWaitingForALock(direct);
    proxy.drop();
    // Read back, nothing is there yet; once its session is ended, nothing ever will be: the append
    // runs again in a transaction, which waits for the lock like any other.
    await new Promise((r) => setTimeout(r, 300));
    lock.release();
    await lock.done;
    const one = await lone;
    expect(one.entry.seq).toBe(2);
    // The first statement's session did not outlive the lock: written once.
    await new Promise((r) => setTimeout(r, 200));
    const stored = await rows();
    expect(stored.map((r) => r.i)).toEqual([0, 1]);
    expect(stored[1]!.hash).toBe(one.entry.hash);
    await new Promise((r) => setTimeout(r, 100));

    // A group of plain appends arriving together (one statement), held and broken the same way.
    const again = holdLock(
      direct,
      "SELECT seq FROM journal_heads WHERE project = 'lost' FOR UPDATE",
    );
    await again.held;
    const group = Promise.all([2, 3, 4, 5].map((i) => journal.append('lost', entry(i))));
    await untilWaitingForALock(direct);
    proxy.drop();
    await new Promise((r) => setTimeout(r, 300));
    again.release();
    await again.done;
    const four = await group;
    await new Promise((r) => setTimeout(r, 200));
    const all = await rows();
    expect(all.map((r) => r.i).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(all.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    const bySeq = new Map(all.map((r) => [r.seq, r.hash]));
    for (const { entry: e } of four) expect(bySeq.get(e.seq)).toBe(e.hash);
    const next = await journal.append('lost', entry(6));
    expect(next.entry.seq).toBe(7);
    expect((await verifyProject(journal, 'lost')).ok).toBe(true);
  });

  it('ends the session of a transaction whose COMMIT could not finish, then runs it again once', async () => {
    const { journal, proxy, rows, direct } = await throughProxy();
    await journal.append('lost', entry(0));
    // A deferred check that waits for an advisory lock at COMMIT: the COMMIT reaches the server and
    // waits there while the test holds the lock.
    await direct.exec(`
      CREATE FUNCTION wait_at_commit() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN PERFORM pg_advisory_xact_lock(7070777); RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER wait_at_commit AFTER INSERT ON journal_entries
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION wait_at_commit();`);
    const lock = holdLock(direct, 'SELECT pg_advisory_xact_lock(7070777)');
    await lock.held;
    // An append that decides on the head runs in a transaction; no retry may run it blindly.
    const decided = journal.append('lost', entry(1), { expectedSeq: 1 });
    await untilWaitingForALock(direct);
    proxy.drop();
    await new Promise((r) => setTimeout(r, 300));
    lock.release();
    await lock.done;
    const one = await decided;
    expect(one.entry.seq).toBe(2);
    await new Promise((r) => setTimeout(r, 200));
    const stored = await rows();
    expect(stored.map((r) => r.i)).toEqual([0, 1]);
    expect(stored[1]!.hash).toBe(one.entry.hash);
    expect((await verifyProject(journal, 'lost')).ok).toBe(true);
  });

  it('says the outcome is unknown when nothing settles it, never that nothing was written', async () => {
    const { journal, proxy, rows } = await throughProxy();
    await journal.append('lost', entry(0));
    // The database out of reach as the statement goes (it never arrives), and still when the
    // journal would read it back: nothing settles it.
    proxy.cut();
    const lone = journal.append('lost', entry(1)).catch((err: unknown) => err);
    expect(await lone).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      details: { outcome: 'unknown' },
    });
    expect((await rows()).map((r) => r.i)).toEqual([0]);
    // Back, the journal reads the head again and goes on.
    proxy.restore();
    const next = await journal.append('lost', entry(2));
    expect(next.entry.seq).toBe(2);
    expect((await verifyProject(journal, 'lost')).ok).toBe(true);
  });

  it('reads a silent database back once: a read that waited out its bound is not tried again', async () => {
    const { journal, proxy, rows, store } = await throughProxy(400);
    await journal.append('lost', entry(0));
    const readBacks = vi.spyOn(store, 'all');
    // Silent: the statement goes and no answer comes back, nor to a read of it.
    proxy.hang();
    const lone = journal.append('lost', entry(1)).catch((err: unknown) => err);
    expect(await lone).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      details: { outcome: 'unknown' },
    });
    const settling = readBacks.mock.calls.filter(([sql]) =>
      sql.startsWith('SELECT hash FROM journal_entries WHERE project = $1 AND seq = $2'),
    );
    // Each further read would wait out the same 400 ms: one, not one per pause.
    expect(settling).toHaveLength(1);
    readBacks.mockRestore();
    proxy.restore();
    // What the statement did is told on the next append, as for any doubt.
    const next = await journal.append('lost', entry(2));
    expect((await rows()).map((r) => r.i)).toEqual(next.entry.seq === 3 ? [0, 1, 2] : [0, 2]);
    expect((await verifyProject(journal, 'lost')).ok).toBe(true);
  });
});
