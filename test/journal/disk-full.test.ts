// Failure test: the disk fills up. SQLite's `max_page_count` (SqliteOptions.maxPageCount, set on the
// main connection and on the background writer's) makes the database answer SQLITE_FULL past a
// number of pages, exactly as ENOSPC would; a filler table takes the space and deleting its rows
// gives it back, as deleting a file on a full disk would. A full disk must be a typed STORE_FULL
// (507), never INTERNAL; nothing of a failed write may stay (not even a statement run after the
// failure inside the same transaction); nothing acknowledged may be lost; and once space is back,
// appends — plain ones pipelined on the background writer included — carry on from the real head:
// no CONFLICT, no fork, a chain that verifies and projections equal to a rebuild.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpStatusOf, isCanonryError } from '../../src/core/index.js';
import {
  type AppendResult,
  Journal,
  rebuildProject,
  verifyProject,
  verifyProjections,
} from '../../src/journal/index.js';
import { migrate, PostgresStore, SqliteStore, type Store } from '../../src/store/index.js';
import {
  COUNTERS,
  count,
  createCounters,
  projectionRows,
  suiteKeyring,
} from '../helpers/journal.js';
import { tempDir } from '../helpers/runtime.js';
import {
  freshPostgresSchema,
  perTest,
  postgresAvailable,
  STORE_MIGRATIONS,
} from '../helpers/stores.js';

/** Room the database may grow by past what the migrations made: about 1 MiB. */
const ROOM_PAGES = 256;

const { signer, anchor } = suiteKeyring();

const { defer } = perTest();

/** A migrated SQLite store that may grow only {@link ROOM_PAGES} pages past its schema. */
async function capped(): Promise<Store> {
  const { dir, cleanup } = tempDir('canonry-full-');
  const location = join(dir, 'canonry.db');
  const first = new SqliteStore(location);
  await migrate(first, STORE_MIGRATIONS);
  await createCounters(first);
  await first.exec('CREATE TABLE filler (project TEXT NOT NULL, blob BLOB NOT NULL)');
  const [{ pages }] = await first.all<{ pages: number }>(
    'SELECT page_count AS pages FROM pragma_page_count()',
  );
  await first.close();
  const store = new SqliteStore(location, { maxPageCount: Number(pages) + ROOM_PAGES });
  defer(async () => {
    await store.close().catch(() => undefined);
    cleanup();
  });
  return store;
}

/** Fills the database until no page is left; returns the error the last insert failed with. */
async function fill(store: Store): Promise<unknown> {
  for (let i = 0; i < 10 * ROOM_PAGES; i++) {
    try {
      await store.run("INSERT INTO filler (project, blob) VALUES ('x', randomblob(3000))");
    } catch (err) {
      // Rows of 3 KB leave room in pages; smaller ones take it until not even a page is left.
      try {
        for (let j = 0; j < 10 * ROOM_PAGES; j++) {
          await store.run("INSERT INTO filler (project, blob) VALUES ('x', randomblob(200))");
        }
      } catch {}
      return err;
    }
  }
  throw new Error('the database never filled');
}

/** Gives the space back, as deleting a file on the full disk would. */
async function free(store: Store): Promise<void> {
  await store.run('DELETE FROM filler');
}

function expectFull(err: unknown): void {
  expect(isCanonryError(err), String(err)).toBe(true);
  expect((err as { code: string }).code).toBe('STORE_FULL');
  expect(httpStatusOf('STORE_FULL')).toBe(507);
}

/** An entry too large for the pages left in place: it needs new pages (overflow). */
const big = (i: number | string) => ({
  kind: 'test.note',
  body: { i, pad: 'p'.repeat(6000) },
  actor: 'producer',
});

async function expectIntact(journal: Journal, project: string, acks: readonly AppendResult[]) {
  const head = await journal.head(project);
  const report = await verifyProject(journal, project, anchor());
  expect(report.broken).toBeNull();
  expect(report).toMatchObject({ ok: true, checked: head.seq });
  const rows = await journal.store.all<{ seq: number; hash: string }>(
    'SELECT seq, hash FROM journal_entries WHERE project = $1 ORDER BY seq',
    [project],
  );
  expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: head.seq }, (_, i) => i + 1));
  const stored = new Map(rows.map((r) => [Number(r.seq), r.hash]));
  for (const { entry } of acks) expect(stored.get(entry.seq)).toBe(entry.hash);
  expect((await verifyProjections(journal, project)).mismatch).toBeNull();
  const live = await projectionRows(journal.store, project);
  await rebuildProject(journal, project);
  expect(await projectionRows(journal.store, project)).toEqual(live);
}

describe('a full disk: the SQLite store', () => {
  it('reports a write past the last page as STORE_FULL (507), on the main connection and the writer thread', async () => {
    const store = await capped();
    expectFull(await fill(store));
    expectFull(
      await store
        .run("INSERT INTO filler (project, blob) VALUES ('y', randomblob(9000))")
        .catch((e: unknown) => e),
    );
    expectFull(
      await store
        .background!.commit([
          { sql: "INSERT INTO filler (project, blob) VALUES ('y', randomblob(9000))", params: [] },
        ])
        .catch((e: unknown) => e),
    );
    // Once space is back, both connections write again.
    await free(store);
    expect(
      await store.background!.commit([
        { sql: "INSERT INTO filler (project, blob) VALUES ('y', randomblob(9000))", params: [] },
      ]),
    ).toBe(true);
    expect(
      await store.run("INSERT INTO filler (project, blob) VALUES ('y', randomblob(9000))"),
    ).toBe(1);
  });

  it('keeps nothing of a transaction that hit the full disk, even statements run after the failure', async () => {
    const store = await capped();
    await fill(store);
    const failed = await store
      .transaction(async (tx) => {
        await tx.run(
          "INSERT INTO test_counters (project, name, value, last_seq) VALUES ('p', 'before', 1, 1)",
        );
        try {
          await tx.run("INSERT INTO filler (project, blob) VALUES ('y', randomblob(9000))");
        } catch {
          // A caller that goes on after a failed statement (as code that reads a typed refusal
          // as "this job only" does) must not write outside the transaction SQLite rolled back.
        }
        await tx.run(
          "INSERT INTO test_counters (project, name, value, last_seq) VALUES ('p', 'after', 1, 1)",
        );
      })
      .catch((e: unknown) => e);
    expectFull(failed);
    expect(await store.all("SELECT name FROM test_counters WHERE project = 'p'")).toEqual([]);
  });
});

describe.skipIf(!postgresAvailable)('a full disk: the PostgreSQL store', () => {
  it('reports disk_full (53100) as STORE_FULL, in autocommit and in a transaction, nothing kept', async () => {
    const { url, drop } = await freshPostgresSchema();
    const store = new PostgresStore({ connectionString: url, max: 2 });
    defer(async () => {
      await store.close();
      await drop();
    });
    await store.exec('CREATE TABLE kept (k TEXT NOT NULL)');
    // What PostgreSQL answers when it cannot extend a file: SQLSTATE 53100.
    const diskFull =
      "DO $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$";
    expectFull(await store.exec(diskFull).catch((e: unknown) => e));
    expectFull(await store.run(diskFull).catch((e: unknown) => e));
    expectFull(
      await store
        .transaction(async (tx) => {
          await tx.run("INSERT INTO kept (k) VALUES ('before')");
          await tx.exec(diskFull);
        })
        .catch((e: unknown) => e),
    );
    expect(await store.all('SELECT k FROM kept')).toEqual([]);
  });
});

describe('a full disk: journal appends', () => {
  it('fail with STORE_FULL, keep every acknowledged entry, and carry on from the real head once space is back', async () => {
    const store = await capped();
    const journal = new Journal(store, {
      projections: [COUNTERS],
      signer,
      checkpointEvery: 20,
    });
    const acks: AppendResult[] = [];
    acks.push(await journal.append('full', count('c')));
    for (let i = 0; i < 10; i++) acks.push(await journal.append('full', big(`warm${i}`)));
    await fill(store);
    const before = await journal.head('full');

    // Plain appends (pipelined on the writer thread), single and together, decided ones, and
    // projection appends: every one refused as STORE_FULL, nothing written.
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 24 }, (_, i) => journal.append('full', big(i))),
      journal.appendAll('full', [big('a'), big('b'), big('c')]),
      journal.append('full', big('decided'), { expectedSeq: before.seq }),
      journal.append('full', { ...count('c'), body: { name: 'c', by: 1, pad: 'p'.repeat(6000) } }),
      journal.append('full', { ...big('keyed'), idempotency_key: 'keyed-1' }),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      if (outcome.status === 'rejected') expectFull(outcome.reason);
    }
    expect(await journal.head('full')).toEqual(before);
    await expectIntact(journal, 'full', acks);

    // Space is back: the same kinds of append land, after the real head, with no CONFLICT.
    await free(store);
    const after = await Promise.all([
      ...Array.from({ length: 24 }, (_, i) => journal.append('full', big(`again${i}`))),
      journal.appendAll('full', [big('a2'), big('b2')]).then((r) => r[0]!),
      journal.append('full', count('c')),
    ]);
    acks.push(...after);
    const head = await journal.head('full');
    acks.push(await journal.append('full', big('decided2'), { expectedSeq: head.seq }));
    expect(acks.at(-1)!.entry.seq).toBe(before.seq + 27 + 1);
    await expectIntact(journal, 'full', acks);
    await journal.close();
  });
});
