import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach } from 'vitest';
import { JOURNAL_MIGRATIONS } from '../../src/journal/index.js';
import { migrate, PostgresStore, SqliteStore, type Store } from '../../src/store/index.js';
import { tempDir } from './runtime.js';

/** The PostgreSQL the tests use: CANONRY_TEST_PG, else the machine's local server. */
export const PG_URL = process.env.CANONRY_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether PostgreSQL tests run. Under CI=true a missing PostgreSQL is a failure, never a skip; on a
 * developer machine without one they are skipped with a note.
 */
export const postgresAvailable: boolean = await (async () => {
  const up = await probe();
  if (!up && process.env.CI === 'true') {
    throw new Error(`PostgreSQL is required in CI but ${PG_URL} is unreachable`);
  }
  if (!up) console.warn(`PostgreSQL tests skipped: ${PG_URL} is unreachable`);
  return up;
})();

/** A PostgreSQL URL whose connections use a fresh schema of their own; `drop` removes it. */
export async function freshPostgresSchema(): Promise<{
  url: string;
  schema: string;
  drop: () => Promise<void>;
}> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** The ICU locale of the databases {@link freshLinguisticPostgres} makes. */
export const LINGUISTIC_LOCALE = 'en-US';

async function asAdmin(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh PostgreSQL database whose default collation is linguistic (ICU `en-US`), as production
 * databases are usually made — unlike the tests' own (C.UTF-8: byte order, SQLite's). There text
 * sorts by language rules ('a' < 'A' < 'B', '_' < '-' < '.' < digits, 'e' < 'é' < 'Z'). `drop`
 * removes it, with any connection still open to it.
 */
export async function freshLinguisticPostgres(): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const name = `t_icu_${randomBytes(6).toString('hex')}`;
  await asAdmin(
    `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${LINGUISTIC_LOCALE}' LOCALE 'C.UTF-8'`,
  );
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The migrations the shared suites apply: the journal's tables. */
export const STORE_MIGRATIONS = { journal: JOURNAL_MIGRATIONS };

/** One engine the shared suites run against. */
export interface Engine {
  readonly name: 'sqlite' | 'postgres';
  /** The database's default collation, where it is not byte order (SQLite's and C's). */
  readonly collation?: string;
  readonly available: boolean;
  /** A fresh, migrated store and its location (file path or URL); `cleanup` removes it. */
  fresh(): Promise<{
    store: Store;
    location: string;
    reopen: () => Store;
    cleanup: () => Promise<void>;
  }>;
}

/** A migrated PostgreSQL store in the place `make` gives (a schema, a database), for {@link Engine}. */
async function migratedPostgres(
  make: () => Promise<{ url: string; drop: () => Promise<void> }>,
): ReturnType<Engine['fresh']> {
  const { url, drop } = await make();
  const store = new PostgresStore({ connectionString: url });
  await migrate(store, STORE_MIGRATIONS);
  return {
    store,
    location: url,
    reopen: () => new PostgresStore({ connectionString: url }),
    cleanup: drop,
  };
}

/** The engines every store-backed suite loops over. */
export const ENGINES: readonly Engine[] = [
  {
    name: 'sqlite',
    available: true,
    async fresh() {
      const { dir, cleanup } = tempDir('canonry-store-');
      const location = join(dir, 'canonry.db');
      const store = new SqliteStore(location);
      await migrate(store, STORE_MIGRATIONS);
      return {
        store,
        location,
        reopen: () => new SqliteStore(location),
        cleanup: async () => cleanup(),
      };
    },
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    fresh: () => migratedPostgres(freshPostgresSchema),
  },
];

/**
 * PostgreSQL in a database of its own with a linguistic default collation (each `fresh` makes one
 * and `cleanup` drops it): for the suites that hold text order to canonry's rule on every engine.
 */
export const LINGUISTIC_POSTGRES: Engine = {
  name: 'postgres',
  collation: `ICU ${LINGUISTIC_LOCALE}`,
  available: postgresAvailable,
  fresh: () => migratedPostgres(freshLinguisticPostgres),
};

/** {@link ENGINES} and {@link LINGUISTIC_POSTGRES}: where text must sort alike. */
export const TEXT_ORDER_ENGINES: readonly Engine[] = [...ENGINES, LINGUISTIC_POSTGRES];

/** An engine's name for a suite's title, with its collation when that is not byte order. */
export const engineTitle = (engine: Pick<Engine, 'name' | 'collation'>): string =>
  engine.collation ? `${engine.name} (${engine.collation} collation)` : engine.name;

/**
 * Work undone after each test of the file that calls it, last first: `defer` a cleanup, or take a
 * `fresh` store of an engine that is closed and removed then.
 */
export function perTest() {
  let cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups = [];
  });
  const defer = (cleanup: () => Promise<unknown>) => {
    cleanups.push(cleanup);
  };
  return {
    defer,
    async fresh(engine: Engine) {
      const made = await engine.fresh();
      defer(async () => {
        await made.store.close().catch(() => undefined);
        await made.cleanup();
      });
      return made;
    },
  };
}
