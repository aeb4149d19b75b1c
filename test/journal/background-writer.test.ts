// The SQLite background writer: plain journal appends (no expected seq, precondition, idempotency
// key or projection) are committed on a thread with a connection of its own, pipelined, while the
// event loop prepares the next batch. These tests hold it to what the main connection promises: an
// append resolves only once it is committed and readable by another connection, a refused or failed
// batch writes nothing and its appends still land (in transactions) or fail alone, a head moved by
// another writer is never overwritten, the chain stays gapless and verifiable, checkpoints signed on
// the way verify, and a SIGKILL never loses an acknowledged append.
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import {
  type AppendResult,
  Journal,
  rebuildProject,
  verifyProject,
} from '../../src/journal/index.js';
import {
  type BackgroundWriter,
  type BatchStatement,
  PostgresStore,
  type Queryable,
  type Row,
  SqliteStore,
  type SqlValue,
  type Store,
  type TransactionOptions,
} from '../../src/store/index.js';
import { requireBuilt, spawnWriter } from '../fixtures/writers.js';
import {
  COUNTERS,
  count,
  createCounters,
  projectionRows,
  suiteKeyring,
} from '../helpers/journal.js';
import { ENGINES, PG_URL, perTest, postgresAvailable } from '../helpers/stores.js';
import { tamperWriterThreads } from '../helpers/writer-threads.js';

const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;

/** A store that counts what reaches the database: transactions, and background batches by outcome. */
class Watched implements Store {
  transactions = 0;
  readonly batches = { committed: 0, refused: 0, failed: 0 };
  readonly background: BackgroundWriter | undefined;
  /** With `gate`, batches reach the writer only once it resolves, in the order they were sent. */
  constructor(
    readonly inner: Store,
    gate: Promise<unknown> = Promise.resolve(),
  ) {
    const writer = inner.background;
    this.background = writer && {
      commit: (statements: readonly BatchStatement[]) =>
        gate
          .then(() => writer.commit(statements))
          .then(
            (committed) => {
              this.batches[committed ? 'committed' : 'refused']++;
              return committed;
            },
            (err: unknown) => {
              this.batches.failed++;
              throw err;
            },
          ),
    };
  }
  get capabilities() {
    return this.inner.capabilities;
  }
  get description() {
    return this.inner.description;
  }
  all<T extends object = Row>(sql: string, params?: readonly SqlValue[]) {
    return this.inner.all<T>(sql, params);
  }
  values<T extends readonly unknown[] = unknown[]>(sql: string, params?: readonly SqlValue[]) {
    return this.inner.values<T>(sql, params);
  }
  run(sql: string, params?: readonly SqlValue[]) {
    return this.inner.run(sql, params);
  }
  exec(sql: string) {
    return this.inner.exec(sql);
  }
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions) {
    this.transactions++;
    return this.inner.transaction(work, options);
  }
  close() {
    return this.inner.close();
  }
}

const note = (i: number | string) => ({ kind: 'test.note', body: { i }, actor: 'producer' });

const { signer, anchor } = suiteKeyring();

const { defer, fresh: freshStore } = perTest();

async function fresh() {
  const f = await freshStore(sqlite);
  await createCounters(f.store);
  return f;
}

/** Reads with a connection of its own, as another process would. */
function outside<T>(location: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(location, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** `n` producers each appending `rounds` plain entries one after another; all resolved results. */
async function produce(
  journal: Journal,
  project: string,
  n: number,
  rounds: number,
): Promise<AppendResult[]> {
  const results: AppendResult[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, p) => {
      for (let r = 0; r < rounds; r++)
        results.push(await journal.append(project, note(`${p}.${r}`)));
    }),
  );
  return results;
}

/** Seqs 1..total with no gap, the chain verifying against the pinned root, every ack at its seq. */
async function expectIntact(
  journal: Journal,
  project: string,
  acks: readonly AppendResult[],
  total: number,
) {
  const report = await verifyProject(journal, project, anchor());
  expect(report.broken).toBeNull();
  expect(report).toMatchObject({ ok: true, checked: total });
  const rows = await journal.store.all<{ seq: number; hash: string }>(
    'SELECT seq, hash FROM journal_entries WHERE project = $1 ORDER BY seq',
    [project],
  );
  expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  const stored = new Map(rows.map((r) => [Number(r.seq), r.hash]));
  expect(new Set(acks.map((a) => a.entry.seq)).size).toBe(acks.length);
  for (const { entry } of acks) expect(stored.get(entry.seq)).toBe(entry.hash);
}

describe('the SQLite background writer', () => {
  it('exists for a file, not for an in-memory database or PostgreSQL', async () => {
    const { store } = await fresh();
    expect(store.background).toBeDefined();
    const memory = new SqliteStore(':memory:');
    expect(memory.background).toBeUndefined();
    await memory.close();
    if (postgresAvailable) {
      const pgStore: Store = new PostgresStore({ connectionString: PG_URL, max: 1 });
      expect(pgStore.background).toBeUndefined();
      await pgStore.close();
    }
  });

  it('commits a batch atomically and durably: another connection reads it once it resolves', async () => {
    const { store, location } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    const committed = await store.background!.commit([
      { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: ['a', 1] },
      { sql: 'INSERT INTO bg (k, n) VALUES ($2, $1)', params: [2, 'b'] },
      { sql: 'UPDATE bg SET n = n + $1 WHERE k = $2', params: [10, 'a'], expectChanges: 1 },
    ]);
    expect(committed).toBe(true);
    expect(outside(location, 'SELECT k, n FROM bg ORDER BY k')).toEqual([
      { k: 'a', n: 11 },
      { k: 'b', n: 2 },
    ]);
  });

  it('refuses a batch whose expectation fails and writes nothing of it', async () => {
    const { store, location } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    const refused = await store.background!.commit([
      { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: ['a', 1] },
      { sql: 'UPDATE bg SET n = 0 WHERE k = $1', params: ['missing'], expectChanges: 1 },
    ]);
    expect(refused).toBe(false);
    expect(outside(location, 'SELECT k FROM bg')).toEqual([]);
    // The thread carries on with the next batch.
    expect(
      await store.background!.commit([
        { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: ['c', 3] },
      ]),
    ).toBe(true);
    expect(outside(location, 'SELECT k FROM bg')).toEqual([{ k: 'c' }]);
  });

  it('rejects a failing batch with the database error, rolls it back, and keeps working', async () => {
    const { store, location } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    await store.run('INSERT INTO bg (k, n) VALUES ($1, $2)', ['taken', 0]);
    const failing = store.background!.commit([
      { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: ['fresh', 1] },
      { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: ['taken', 2] },
    ]);
    await expect(failing).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(outside(location, 'SELECT k FROM bg ORDER BY k')).toEqual([{ k: 'taken' }]);
    expect(
      await store.background!.commit([
        { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: ['next', 3] },
      ]),
    ).toBe(true);
  });

  it('orders writes on the main connection after the batches sent before them', async () => {
    const { store } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    const sent = Array.from({ length: 20 }, (_, i) =>
      store.background!.commit([
        { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: [`k${i}`, i] },
      ]),
    );
    // Not awaited: the UPDATE must still find all twenty rows, committed before it.
    expect(await store.run('UPDATE bg SET n = n + 100')).toBe(20);
    expect(await Promise.all(sent)).toEqual(Array(20).fill(true));
    const [sum] = await store.all<{ s: number }>('SELECT SUM(n) AS s FROM bg');
    expect(Number(sum!.s)).toBe(190 + 2000);
  });

  it('finishes the batches in flight before the store closes', async () => {
    const { store, location, reopen } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    const sent = Array.from({ length: 10 }, (_, i) =>
      store.background!.commit([
        { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: [`k${i}`, i] },
      ]),
    );
    await store.close();
    expect(await Promise.all(sent)).toEqual(Array(10).fill(true));
    expect(outside<{ n: number }>(location, 'SELECT COUNT(*) AS n FROM bg')[0]!.n).toBe(10);
    // A reopened store starts a new thread.
    const again = reopen();
    defer(() => again.close());
    expect(
      await again.background!.commit([{ sql: 'DELETE FROM bg WHERE n < $1', params: [5] }]),
    ).toBe(true);
    expect(outside<{ n: number }>(location, 'SELECT COUNT(*) AS n FROM bg')[0]!.n).toBe(5);
  });
});

/** Runs `send`, returning the writer thread it posted to (a spy on the real Worker's postMessage). */
async function threadOf<T>(send: () => Promise<T>): Promise<{ worker: Worker; result: T }> {
  const spy = vi.spyOn(Worker.prototype, 'postMessage');
  try {
    const result = await send();
    const worker = spy.mock.contexts.at(-1) as Worker | undefined;
    if (!worker) throw new Error('nothing was posted to a thread');
    return { worker, result };
  } finally {
    spy.mockRestore();
  }
}

describe('the SQLite background writer, when its thread dies', () => {
  const insert = (k: string): BatchStatement[] => [
    { sql: 'INSERT INTO bg (k, n) VALUES ($1, $2)', params: [k, 1] },
  ];

  it('starts a new thread for the next batch after one that died idle', async () => {
    const { store, location } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    const { worker, result } = await threadOf(() => store.background!.commit(insert('a')));
    expect(result).toBe(true);
    await worker.terminate();
    // Posting to the dead thread would leave this waiting forever.
    expect(await store.background!.commit(insert('b'))).toBe(true);
    expect(outside(location, 'SELECT k FROM bg ORDER BY k')).toEqual([{ k: 'a' }, { k: 'b' }]);
  });

  it('fails the batch in flight as outcome unknown, refuses batches briefly, then starts anew', async () => {
    const { store, location } = await fresh();
    await store.exec('CREATE TABLE bg (k TEXT PRIMARY KEY, n BIGINT NOT NULL)');
    const { worker } = await threadOf(() => store.background!.commit(insert('a')));
    const inFlight = store.background!.commit(insert('b'));
    await worker.terminate();
    await expect(inFlight).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      details: { outcome: 'unknown' },
    });
    // Right after a death the writer does not spin up threads in a loop: callers fall back.
    await expect(store.background!.commit(insert('c'))).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
    // The main connection is not held up by the dead thread's connection.
    await store.run('INSERT INTO bg (k, n) VALUES ($1, $2)', ['main', 2]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.background!.commit(insert('d'))).toBe(true);
    const keys = outside<{ k: string }>(location, 'SELECT k FROM bg ORDER BY k').map((r) => r.k);
    // 'b' may or may not have committed before the thread died; 'c' never reached a thread.
    expect(keys.filter((k) => k !== 'b')).toEqual(['a', 'd', 'main']);
  });

  it('keeps plain journal appends flowing across a thread death: acknowledged ones kept, the chain whole', async () => {
    const { store, location } = await fresh();
    const journal = new Journal(store);
    const append = (i: number) => journal.append('dies', { kind: 'x.y', body: { i }, actor: 'a' });
    // The project's first append creates its head in a transaction; plain appends follow.
    const genesis = await append(-1);
    const first = await threadOf(() => Promise.all(Array.from({ length: 8 }, (_, i) => append(i))));
    const during = Array.from({ length: 16 }, (_, i) => append(100 + i));
    await first.worker.terminate();
    const settled = await Promise.allSettled(during);
    // Those in flight on the dead thread may or may not have committed, and say so.
    for (const s of settled) {
      if (s.status === 'rejected')
        expect(s.reason).toMatchObject({
          code: 'STORE_UNAVAILABLE',
          details: { outcome: 'unknown' },
        });
    }
    const after = await Promise.all(Array.from({ length: 8 }, (_, i) => append(200 + i)));
    const acked = [
      genesis,
      ...first.result,
      ...settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
      ...after,
    ];
    const rows = outside<{ seq: number; hash: string }>(
      location,
      'SELECT seq, hash FROM journal_entries WHERE project = ? ORDER BY seq',
      'dies',
    );
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    const stored = new Map(rows.map((r) => [r.seq, r.hash]));
    for (const { entry } of acked) expect(stored.get(entry.seq)).toBe(entry.hash);
    expect(rows.length).toBeGreaterThanOrEqual(acked.length);
    expect((await verifyProject(journal, 'dies')).ok).toBe(true);
    // A new thread took over once the pause ended.
    await new Promise((r) => setTimeout(r, 300));
    const later = await threadOf(() =>
      Promise.all(Array.from({ length: 8 }, (_, i) => append(300 + i))),
    );
    expect(later.worker).not.toBe(first.worker);
  });
});

describe('plain appends whose thread died unanswered', () => {
  it('reads back whether the batch committed: acknowledged if it did, written once if not', async () => {
    const { store, location } = await fresh();
    const journal = new Journal(store);
    const append = (i: number) =>
      journal.append('settle', { kind: 'x.y', body: { i }, actor: 'a' });
    const t = tamperWriterThreads();
    try {
      await append(-1); // the head, in a transaction
      await Promise.all([append(0), append(1)]); // the thread starts
      expect(t.threads).toHaveLength(1);
      const rowsNow = () =>
        outside<{ n: number }>(
          location,
          'SELECT count(*) AS n FROM journal_entries WHERE project = ?',
          'settle',
        )[0]!.n;

      // Committed, its answer lost: the thread dies after the batch is stored.
      t.drop.on = true;
      const committed = Array.from({ length: 6 }, (_, i) => append(10 + i));
      while (rowsNow() < 9) await new Promise((r) => setTimeout(r, 5));
      await t.threads[0]!.terminate();
      t.drop.on = false;
      const first = await Promise.allSettled(committed);
      expect(first.map((r) => r.status)).toEqual(Array(6).fill('fulfilled'));

      // Lost on its way: the thread dies before it saw the batch (after the pause a death costs,
      // a new thread takes plain appends again).
      await new Promise((r) => setTimeout(r, 250));
      await Promise.all([append(2), append(3)]);
      expect(t.threads).toHaveLength(2);
      t.swallow.on = true;
      const lost = Array.from({ length: 6 }, (_, i) => append(20 + i));
      await new Promise((r) => setTimeout(r, 50));
      expect(rowsNow()).toBe(11);
      await t.threads[1]!.terminate();
      t.swallow.on = false;
      const second = await Promise.allSettled(lost);
      expect(second.map((r) => r.status)).toEqual(Array(6).fill('fulfilled'));

      // Every append acknowledged once, at the seq it was told, and the chain whole.
      const rows = outside<{ seq: number; hash: string; body: string }>(
        location,
        'SELECT seq, hash, body FROM journal_entries WHERE project = ? ORDER BY seq',
        'settle',
      );
      const bodies = rows.map((r) => JSON.parse(r.body).i as number);
      expect([...bodies].sort((a, b) => a - b)).toEqual([
        -1, 0, 1, 2, 3, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25,
      ]);
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      const stored = new Map(rows.map((r) => [r.seq, r.hash]));
      for (const r of [...first, ...second]) {
        const { entry } = (r as PromiseFulfilledResult<Awaited<ReturnType<typeof append>>>).value;
        expect(stored.get(entry.seq)).toBe(entry.hash);
      }
      expect((await verifyProject(journal, 'settle')).ok).toBe(true);
    } finally {
      t.restore();
    }
  });
});

describe('plain journal appends on the background writer', () => {
  it('commits 32 concurrent producers in pipelined batches: gapless, verified, checkpoints signed', async () => {
    const { store } = await fresh();
    const watched = new Watched(store);
    const journal = new Journal(watched, {
      projections: [COUNTERS],
      signer,
      checkpointEvery: 50,
    });
    await journal.append('busy', note('first'));
    const acks = await produce(journal, 'busy', 32, 25);
    expect(acks).toHaveLength(800);
    await expectIntact(journal, 'busy', acks, 801);
    // Batched off the event loop: far fewer commits than appends, and none refused.
    expect(watched.batches.committed).toBeGreaterThan(0);
    expect(watched.batches.refused + watched.batches.failed).toBe(0);
    expect(watched.batches.committed + watched.transactions).toBeLessThan(801 / 4);
    // A checkpoint at every 50th seq, each signed over the hash of the entry at its seq.
    const checkpoints = (await journal.checkpoints('busy')) as { seq: number; head_hash: string }[];
    expect(checkpoints.map((c) => c.seq)).toEqual(
      Array.from({ length: 16 }, (_, i) => (i + 1) * 50),
    );
    const bySeq = new Map(acks.map((a) => [a.entry.seq, a.entry.hash]));
    for (const c of checkpoints) expect(c.head_hash).toBe(bySeq.get(c.seq));
    // An append resolves only once another connection can read it.
    const last = acks.reduce((a, b) => (a.entry.seq > b.entry.seq ? a : b));
    expect(await new Journal(store).head('busy')).toEqual({
      project: 'busy',
      seq: 801,
      hash: last.entry.hash,
    });
  });

  it('commits a lone batch of entries (the audit sink’s appendAll) on the thread, atomically', async () => {
    const { store } = await fresh();
    const watched = new Watched(store);
    const journal = new Journal(watched, { signer, checkpointEvery: 100 });
    await journal.append('audit', note('first'));
    const before = watched.transactions;
    const results = await journal.appendAll(
      'audit',
      Array.from({ length: 250 }, (_, i) => note(i)),
    );
    // One background batch, no transaction on the event loop's connection.
    expect(watched.batches.committed).toBe(1);
    expect(watched.transactions).toBe(before);
    expect(results.map((r) => r.entry.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 2));
    await expectIntact(journal, 'audit', results, 251);
    expect(((await journal.checkpoints('audit')) as { seq: number }[]).map((c) => c.seq)).toEqual([
      100, 200,
    ]);
    // A lone single entry keeps the event loop's connection (no thread hop for one row).
    await journal.append('audit', note('last'));
    expect(watched.batches.committed).toBe(1);
    expect(watched.transactions).toBe(before + 1);
  });

  it('keeps several projects apart in one batch, each head moved once per batch', async () => {
    const { store } = await fresh();
    const watched = new Watched(store);
    const journal = new Journal(watched);
    const projects = ['p-a', 'p-b', 'p-c'];
    for (const p of projects) await journal.append(p, note('first'));
    const acks = await Promise.all(
      Array.from({ length: 300 }, (_, i) => journal.append(projects[i % 3]!, note(i))),
    );
    expect(watched.batches.committed).toBeGreaterThan(0);
    for (const p of projects) {
      const mine = acks.filter((a) => a.entry.project === p);
      expect(mine).toHaveLength(100);
      await expectIntact(journal, p, mine, 101);
    }
  });

  it('refuses a batch built on a refused one even when the head stands at the seq it assumed', async () => {
    const { store } = await fresh();
    let open!: () => void;
    const watched = new Watched(
      store,
      new Promise<void>((r) => {
        open = r;
      }),
    );
    const mine = new Journal(watched);
    const other = new Journal(store);
    const first = await mine.append('aligned', note('mine-first'));
    // 32 plain appends leave as two held batches: seq 2-17 from head 1, then 18-33 from the first
    // batch's own seq 17, which never commits.
    const pending = Array.from({ length: 32 }, (_, i) => mine.append('aligned', note(i)));
    await new Promise((r) => setTimeout(r, 50));
    // Meanwhile another writer puts different entries at 2-17: the head stands at seq 17.
    const theirs = await other.appendAll(
      'aligned',
      Array.from({ length: 16 }, (_, i) => note(`other-${i}`)),
    );
    expect(theirs.at(-1)!.entry.seq).toBe(17);
    open();
    const acks = await Promise.all(pending);
    // Both batches refused (the second's head seq matched, its hash did not); all 32 landed after.
    expect(watched.batches.refused).toBe(2);
    expect(acks.map((a) => a.entry.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 32 }, (_, i) => i + 18),
    );
    await expectIntact(mine, 'aligned', [first, ...theirs, ...acks], 49);
  });

  it('never overwrites a head another writer moved: the batch is refused and its appends land after', async () => {
    const { store } = await fresh();
    const watched = new Watched(store);
    const mine = new Journal(watched);
    const other = new Journal(store);
    await mine.append('shared', note('mine-first'));
    // Another writer moves the head; `mine` still believes seq 1.
    const theirs = [];
    for (let i = 0; i < 5; i++) theirs.push(await other.append('shared', note(`other-${i}`)));
    const acks = await Promise.all(
      Array.from({ length: 40 }, (_, i) => mine.append('shared', note(i))),
    );
    expect(watched.batches.refused).toBeGreaterThanOrEqual(1);
    expect(acks.map((a) => a.entry.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 7),
    );
    const first = (await mine.read('shared', { after: 0, limit: 1 }))[0]!;
    await expectIntact(mine, 'shared', [...theirs, ...acks, { entry: first } as AppendResult], 46);
  });

  it('lets plain appends, expected-seq appends and projection appends run together in order', async () => {
    const { store } = await fresh();
    const journal = new Journal(store, { projections: [COUNTERS] });
    await journal.append('mixed', note('first'));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 120 }, (_, i) => {
        if (i % 10 === 3) return journal.append('mixed', count('c'));
        if (i % 10 === 7)
          return journal
            .head('mixed')
            .then((h) => journal.append('mixed', count('e'), { expectedSeq: h.seq }));
        return journal.append('mixed', note(i));
      }),
    );
    const ok = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const conflicts = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    // Only expected-seq appends may be refused, and only with a typed CONFLICT.
    expect(conflicts.every((e) => (e as { code?: string }).code === 'CONFLICT')).toBe(true);
    expect(ok.length + conflicts.length).toBe(120);
    expect(conflicts.length).toBeLessThanOrEqual(12);
    await expectIntact(journal, 'mixed', ok, ok.length + 1);
    const live = await projectionRows(store, 'mixed');
    await rebuildProject(journal, 'mixed');
    expect(await projectionRows(store, 'mixed')).toEqual(live);
    const counted = ok.filter((a) => a.entry.kind === 'test.count').length;
    const { counters } = live as { counters: { value: number }[] };
    expect(counters.reduce((s, c) => s + Number(c.value), 0)).toBe(counted);
  });

  it('fails only the append the database rejects; the rest of its batch lands in transactions', async () => {
    const { store } = await fresh();
    await store.exec(
      `CREATE TRIGGER poison BEFORE INSERT ON journal_entries WHEN NEW.body LIKE '%poison%'
       BEGIN SELECT RAISE(ABORT, 'poisoned entry'); END`,
    );
    const watched = new Watched(store);
    const journal = new Journal(watched);
    await journal.append('poisoned', note('first'));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 32 }, (_, i) =>
        journal.append('poisoned', note(i === 17 ? 'poison' : i)),
      ),
    );
    expect(watched.batches.failed).toBeGreaterThanOrEqual(1);
    const rejected = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
    expect(rejected).toEqual([17]);
    const ok = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    await expectIntact(journal, 'poisoned', ok, 32);
    // The background path is used again afterwards.
    const before = watched.batches.committed;
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => journal.append('poisoned', note(`after-${i}`))),
    );
    expect(watched.batches.committed).toBeGreaterThan(before);
    expect((await journal.head('poisoned')).seq).toBe(48);
  });

  it('lets a process close its store and carry on after its last plain append', async () => {
    requireBuilt();
    const { store, location } = await fresh();
    await new Journal(store).append('closing', note('first'));
    const writer = spawnWriter(location, 'closing', 'plain', '16', '300');
    await writer.waitFor('ready');
    writer.go();
    // `done` is printed after `await store.close()`: the writer thread must not end the process first.
    expect(await writer.exited).toEqual({ code: 0, signal: null });
    expect(writer.lines.at(-1)).toBe('done');
    expect(writer.acks()).toHaveLength(300);
    expect((await new Journal(store).head('closing')).seq).toBe(301);
  });

  it('keeps 4 processes pipelining plain appends on one file gapless, each ack at its seq', async () => {
    requireBuilt();
    const { store, location } = await fresh();
    await new Journal(store).append('crowded', note('first'));
    const writers = Array.from({ length: 4 }, () =>
      spawnWriter(location, 'crowded', 'plain', '16', '200'),
    );
    for (const w of writers) await w.waitFor('ready');
    for (const w of writers) w.go();
    for (const w of writers) {
      expect(await w.exited, w.stderr()).toEqual({ code: 0, signal: null });
      expect(w.lines.filter((l) => l.startsWith('fatal'))).toEqual([]);
    }
    const acks = writers.flatMap((w) => w.acks());
    expect(acks).toHaveLength(800);
    const rows = outside<{ seq: number; body: string }>(
      location,
      'SELECT seq, body FROM journal_entries WHERE project = ? ORDER BY seq',
      'crowded',
    );
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 801 }, (_, i) => i + 1));
    const stored = new Map(
      rows.slice(1).map((r) => [(JSON.parse(r.body) as { key: string }).key, r.seq]),
    );
    expect(acks.filter(({ key, seq }) => stored.get(key) !== seq)).toEqual([]);
    expect((await verifyProject(new Journal(store), 'crowded')).ok).toBe(true);
  });

  it('never loses an acknowledged plain append to SIGKILL', async () => {
    requireBuilt();
    const { store, location } = await fresh();
    await new Journal(store).append('killed', note('first'));
    await store.close();
    const acked = new Map<string, number>();
    let midFlight = 0;
    for (let kill = 0; kill < 12; kill++) {
      const writer = spawnWriter(location, 'killed', 'plain', '32');
      await writer.waitFor('ready');
      writer.go();
      await writer.waitFor('appending');
      await new Promise((r) => setTimeout(r, 30 + Math.floor(Math.random() * 200)));
      writer.child.kill('SIGKILL');
      expect((await writer.exited).signal).toBe('SIGKILL');
      expect(writer.lines.filter((l) => l.startsWith('fatal'))).toEqual([]);
      for (const { key, seq } of writer.acks()) acked.set(key, seq);
      const rows = outside<{ seq: number; body: string }>(
        location,
        'SELECT seq, body FROM journal_entries WHERE project = ? ORDER BY seq',
        'killed',
      );
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      const stored = new Map(
        rows.slice(1).map((r) => [(JSON.parse(r.body) as { key: string }).key, r.seq]),
      );
      const lost = [...acked].filter(([key, seq]) => stored.get(key) !== seq);
      expect(lost, `after kill ${kill + 1}`).toEqual([]);
      if (rows.length - 1 > acked.size) midFlight++;
    }
    const reopened = new SqliteStore(location);
    defer(() => reopened.close());
    const journal = new Journal(reopened);
    const report = await verifyProject(journal, 'killed');
    expect(report.broken).toBeNull();
    expect(acked.size).toBeGreaterThan(100);
    console.log(
      `[background-writer] 12 SIGKILLs, ${acked.size} acknowledged plain appends, ${report.checked} entries, ${midFlight} kills with commits unacknowledged`,
    );
  }, 120_000);
});
