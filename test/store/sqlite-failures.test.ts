// A SQLite file that fails: a disk that refuses writes (SQLITE_IOERR_*), a file that is not a
// database or is damaged (SQLITE_NOTADB, SQLITE_CORRUPT), a database on a read-only mount
// (SQLITE_READONLY, or a file that cannot be opened for writing at all). Each is a typed error —
// STORE_UNAVAILABLE (503) for what an operator fixes and a retry may then pass, STORE_CORRUPT for a
// damaged file no retry mends — with SQLite's code in `details.sqlite`, never a raw driver error
// (INTERNAL at the edge); and a transaction that met one keeps nothing, also where SQLite left it
// open and the work caught the failure and carried on, and the connection commits the next one. Real files throughout: the file-size limit
// of this process (prlimit, one byte) makes every write of SQLite fail as the kernel refuses it; a
// tmpfs remounted read-only (root; under CI=true its absence is a failure) is a read-only disk.
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { openStore, SqliteStore, type Store } from '../../src/store/index.js';
import { tempDir } from '../helpers/runtime.js';
import { STORE_MIGRATIONS } from '../helpers/stores.js';

const closing: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A store on a fresh file in a temp dir, closed (and the dir removed) after the test. */
function fresh(name = 'canonry.db'): { store: SqliteStore; path: string; dir: string } {
  const { dir, cleanup } = tempDir('canonry-sqlite-failure-');
  const path = join(dir, name);
  const store = new SqliteStore(path);
  closing.push(cleanup, () => store.close().catch(() => undefined));
  return { store, path, dir };
}

/** What `work` threw, or fails the test when it did not. */
async function failure(work: () => unknown): Promise<CanonryError> {
  try {
    await work();
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(CanonryError);
    return err as CanonryError;
  }
  throw new Error('expected a failure');
}

async function rows(store: Store, table: string): Promise<unknown[]> {
  return (await store.all<{ k: unknown }>(`SELECT k FROM ${table} ORDER BY k`)).map((r) => r.k);
}

/** Runs `prlimit` on this process; false where it cannot (never under CI=true). */
function prlimit(size: string): boolean {
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--fsize=${size}:`], { stdio: 'pipe' });
    return true;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`prlimit is required in CI: ${err}`);
    console.warn(`skipped: prlimit is not possible here (${err})`);
    return false;
  }
}

describe('a SQLite file that is not a database, or is damaged', () => {
  it('a file that is not a database is STORE_CORRUPT naming it, from the constructor and from openStore', async () => {
    const { dir, cleanup } = tempDir('canonry-notadb-');
    closing.push(cleanup);
    const path = join(dir, 'canonry.db');
    writeFileSync(path, 'these are not the pages of a database\n'.repeat(200));
    const err = await failure(() => new SqliteStore(path));
    expect(err.code).toBe('STORE_CORRUPT');
    expect(err.details).toEqual({ sqlite: 'SQLITE_NOTADB' });
    expect(err.message).toContain(path);
    expect(err.message).toMatch(/not a SQLite database.*retrying will not help/);
    expect((await failure(() => openStore(path, dir, STORE_MIGRATIONS))).code).toBe(
      'STORE_CORRUPT',
    );
    // Nothing was left open on it: the file can be replaced and opened.
    writeFileSync(path, '');
    const store = new SqliteStore(path);
    closing.push(() => store.close());
    expect(await store.all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('damaged pages are STORE_CORRUPT, and a transaction that read one keeps nothing though its work caught it', async () => {
    const { store, path } = fresh();
    await store.exec('CREATE TABLE good (k INTEGER)');
    await store.exec('CREATE TABLE bad (k INTEGER, filler TEXT)');
    for (let i = 0; i < 20; i++) {
      await store.run(
        `WITH RECURSIVE n(k) AS (SELECT $1 UNION ALL SELECT k + 1 FROM n WHERE k < $2)
         INSERT INTO bad (k, filler) SELECT k, printf('%.200c', 'x') FROM n`,
        [i * 100, i * 100 + 99],
      );
    }
    await store.all('PRAGMA wal_checkpoint(TRUNCATE)');
    await store.close();
    // Pages in the middle of the file belong to `bad` (created after `good`, grown far past it).
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 4, 0xa5), 0, 4096 * 4, 4096 * 40);
    closeSync(fd);

    const damaged = new SqliteStore(path);
    closing.push(() => damaged.close());
    const read = await failure(() => damaged.all('SELECT sum(length(filler)) AS n FROM bad'));
    expect(read.code).toBe('STORE_CORRUPT');
    expect(read.details).toEqual({ sqlite: expect.stringMatching(/^SQLITE_CORRUPT/) });
    expect(read.message).not.toContain(path);

    // SQLite leaves this transaction open after the failed read; the work catches the failure (as
    // a job's refusal would be) and writes on. The transaction fails whole all the same, typed.
    const caught: unknown[] = [];
    const err = await failure(() =>
      damaged.transaction(async (tx) => {
        await tx.run('INSERT INTO good (k) VALUES (1)');
        await tx.all('SELECT sum(length(filler)) AS n FROM bad').catch((e) => caught.push(e));
        await tx.run('INSERT INTO good (k) VALUES (2)').catch((e) => caught.push(e));
      }),
    );
    expect(err.code).toBe('STORE_CORRUPT');
    expect(caught.map((e) => (e as CanonryError).code)).toEqual(['STORE_CORRUPT', 'STORE_CORRUPT']);
    expect(await rows(damaged, 'good')).toEqual([]);
    // The connection is not left inside a transaction: the next one commits.
    await damaged.transaction((tx) => tx.run('INSERT INTO good (k) VALUES (3)'));
    expect(await rows(damaged, 'good')).toEqual([3]);
  });
});

describe('a disk that refuses writes (SQLITE_IOERR)', () => {
  it('writes on every path are STORE_UNAVAILABLE, nothing of them is kept, and they succeed once the disk works', async (context) => {
    const { store } = fresh();
    await store.exec('CREATE TABLE t (k INTEGER)');
    await store.run('INSERT INTO t (k) VALUES (1)');
    if (!prlimit('1')) context.skip();
    try {
      const run = await failure(() => store.run('INSERT INTO t (k) VALUES (2)'));
      expect(run.code).toBe('STORE_UNAVAILABLE');
      expect(run.status).toBe(503);
      expect(run.details).toEqual({ sqlite: expect.stringMatching(/^SQLITE_IOERR/) });
      expect(run.message).toMatch(/the disk under it failed.*nothing of the operation was kept/);

      const tx = await failure(() =>
        store.transaction(async (t) => {
          await t.run('INSERT INTO t (k) VALUES (3)');
          await t.run('INSERT INTO t (k) VALUES (4)');
        }),
      );
      expect(tx.code).toBe('STORE_UNAVAILABLE');

      const background = await failure(() =>
        store.background!.commit([{ sql: 'INSERT INTO t (k) VALUES ($1)', params: [5] }]),
      );
      expect(background.code).toBe('STORE_UNAVAILABLE');
      expect(background.details).toEqual({ sqlite: expect.stringMatching(/^SQLITE_IOERR/) });

      // Reads still answer.
      expect(await rows(store, 't')).toEqual([1]);
    } finally {
      prlimit('unlimited');
    }
    await store.run('INSERT INTO t (k) VALUES (6)');
    await store.transaction((t) => t.run('INSERT INTO t (k) VALUES (7)'));
    expect(
      await store.background!.commit([{ sql: 'INSERT INTO t (k) VALUES ($1)', params: [8] }]),
    ).toBe(true);
    expect(await rows(store, 't')).toEqual([1, 6, 7, 8]);
  });
});

describe('a database on a read-only disk', () => {
  it('is STORE_UNAVAILABLE: writes are SQLITE_READONLY while reads answer, and a file it cannot open names the cause', async (context) => {
    const { dir, cleanup } = tempDir('canonry-readonly-');
    closing.push(cleanup);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      if (process.env.CI === 'true') throw new Error(`a tmpfs mount is required in CI: ${err}`);
      console.warn(`skipped: cannot mount a tmpfs (${err})`);
      context.skip();
    }
    closing.push(() => {
      execFileSync('umount', [dir]);
    });

    // A database as a process that stopped without closing it leaves it: the file, its WAL and its
    // shared memory (copied while the writer is idle), and one closed cleanly (no companions).
    const { store, path } = fresh();
    await store.exec('CREATE TABLE t (k INTEGER)');
    await store.run('INSERT INTO t (k) VALUES (1)');
    const left = join(dir, 'left.db');
    for (const suffix of ['', '-wal', '-shm']) copyFileSync(`${path}${suffix}`, `${left}${suffix}`);
    await store.close();
    const closed = join(dir, 'closed.db');
    copyFileSync(path, closed);
    expect(existsSync(`${closed}-wal`)).toBe(false);
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    closing.push(() => {
      execFileSync('mount', ['-o', 'remount,rw', dir]);
    });

    const readOnly = new SqliteStore(left);
    closing.push(() => readOnly.close());
    expect(await rows(readOnly, 't')).toEqual([1]);
    const write = await failure(() => readOnly.run('INSERT INTO t (k) VALUES (2)'));
    expect(write.code).toBe('STORE_UNAVAILABLE');
    expect(write.details).toEqual({ sqlite: expect.stringMatching(/^SQLITE_READONLY/) });
    const tx = await failure(() =>
      readOnly.transaction((t) => t.run('INSERT INTO t (k) VALUES (3)')),
    );
    expect(tx.code).toBe('STORE_UNAVAILABLE');
    expect(await rows(readOnly, 't')).toEqual([1]);

    const cannot = await failure(() => new SqliteStore(closed));
    expect(cannot.code).toBe('STORE_UNAVAILABLE');
    expect(cannot.message).toBe(
      `cannot create or open the database ${closed}: its file system is read-only (EROFS)`,
    );
    const created = await failure(() => new SqliteStore(join(dir, 'new', 'canonry.db')));
    expect(created.code).toBe('STORE_UNAVAILABLE');
    expect(created.details).toEqual({ errno: 'EROFS' });
  });
});
