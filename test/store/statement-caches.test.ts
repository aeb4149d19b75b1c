// What a store keeps per statement text is bounded, whatever texts a long-running process meets: a
// list's statement has a text per row count (`pieces`, up to 500 rows), and `runTogether` joins
// such texts, so the texts are many. Each bound is checked by the count kept, not by memory.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PostgresStore,
  perCount,
  rowPlaceholders,
  SqliteStore,
  STATEMENT_PIECE,
} from '../../src/store/index.js';
import { namedTexts } from '../../src/store/postgres/postgres-store.js';
import {
  BACKGROUND_STATEMENT_CACHE_SIZE,
  positionalFormsKept,
} from '../../src/store/sqlite/background-writer.js';
import { STATEMENT_CACHE_SIZE } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

/** `count` distinct parameterised texts, one per row count as a list's statement has. */
const texts = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `SELECT count(*) AS n FROM (VALUES ${rowPlaceholders(i + 1, 1)}) AS v`,
  );

describe('SQLite statement caches', () => {
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it('the main connection keeps at most STATEMENT_CACHE_SIZE prepared statements, and still answers', async () => {
    const { dir, cleanup } = tempDir();
    const store = new SqliteStore(join(dir, 'db.sqlite'));
    closing.push(async () => {
      await store.close();
      cleanup();
    });
    const all = texts(STATEMENT_CACHE_SIZE + 300);
    for (const [i, sql] of all.entries()) {
      const params = Array.from({ length: i + 1 }, (_, k) => k);
      expect(await store.all(sql, params)).toEqual([{ n: i + 1 }]);
    }
    expect(store.cachedStatements).toBeLessThanOrEqual(STATEMENT_CACHE_SIZE);
    // An evicted text is prepared again when it comes back.
    expect(await store.all(all[0]!, [7])).toEqual([{ n: 1 }]);
  });

  it('the background writer keeps at most its bound of positional forms', async () => {
    const { dir, cleanup } = tempDir();
    const store = new SqliteStore(join(dir, 'db.sqlite'));
    closing.push(async () => {
      await store.close();
      cleanup();
    });
    await store.exec('CREATE TABLE t (k INTEGER)');
    const insert = (rows: number) => `INSERT INTO t (k) VALUES ${rowPlaceholders(rows, 1)}`;
    let total = 0;
    for (let rows = 1; rows <= BACKGROUND_STATEMENT_CACHE_SIZE + 200; rows++) {
      const params = Array.from({ length: rows }, (_, k) => k);
      expect(await store.background!.commit([{ sql: insert(rows), params }])).toBe(true);
      total += rows;
    }
    expect(positionalFormsKept()).toBeLessThanOrEqual(BACKGROUND_STATEMENT_CACHE_SIZE);
    expect(await store.all('SELECT count(*) AS n FROM t')).toEqual([{ n: total }]);
  });
});

describe('perCount', () => {
  it('keeps a bounded number of texts: a count asked for long ago is made again', () => {
    const made: number[] = [];
    const sql = perCount((n) => {
      made.push(n);
      return `INSERT INTO t (k) VALUES ${rowPlaceholders(n, 1)}`;
    });
    for (let n = 1; n <= STATEMENT_PIECE; n++) sql(n);
    expect(made).toHaveLength(STATEMENT_PIECE);
    // The most recent counts are still kept; the first is not.
    sql(STATEMENT_PIECE);
    expect(made).toHaveLength(STATEMENT_PIECE);
    expect(sql(1)).toBe('INSERT INTO t (k) VALUES ($1)');
    expect(made).toHaveLength(STATEMENT_PIECE + 1);
  });
});

describe.skipIf(!postgresAvailable)('PostgreSQL statement names', () => {
  it('keeps at most 512 named texts: the texts past them run unnamed and are not kept', async () => {
    const schema = await freshPostgresSchema();
    const store = new PostgresStore({ connectionString: schema.url, max: 1 });
    try {
      const all = texts(700);
      for (const [i, sql] of all.entries()) {
        const params = Array.from({ length: i + 1 }, (_, k) => k);
        expect(await store.all<{ n: number }>(`${sql}`, params)).toEqual([{ n: i + 1 }]);
      }
      expect(namedTexts()).toBeLessThanOrEqual(512);
    } finally {
      await store.close();
      await schema.drop();
    }
  });
});
