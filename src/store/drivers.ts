import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type Pg from 'pg';
import { CanonryError } from '../core/index.js';

/** The database drivers canonry can use, with the versions it is built against. */
const DRIVERS = {
  'better-sqlite3': { range: '^12.11.1', store: 'the embedded SQLite store' },
  pg: { range: '^8.23.1', store: 'the PostgreSQL store' },
} as const;

type DriverName = keyof typeof DRIVERS;

/** What a kernel-only user never pays for: each driver is loaded when its store is first opened. */
const loaded = new Map<DriverName, unknown>();

/**
 * The driver `name`, loaded on first use. Both are optional dependencies of canonry (installed by
 * default; `npm install --omit=optional` leaves them out), so importing canonry — `canonry/kernel`
 * above all — never loads a native module or a pool. Synchronous (CommonJS `require`), because the
 * stores' constructors are. A driver that is not installed is STORE_UNAVAILABLE naming the package.
 */
function load(name: DriverName): unknown {
  if (loaded.has(name)) return loaded.get(name);
  let driver: unknown;
  try {
    driver = createRequire(import.meta.url)(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'MODULE_NOT_FOUND' || !String((err as Error).message).includes(`'${name}'`)) {
      throw err;
    }
    const { range, store } = DRIVERS[name];
    throw new CanonryError(
      'STORE_UNAVAILABLE',
      `${store} needs the ${name} package, which is not installed: npm install ${name}@${range}`,
      { driver: name },
    );
  }
  loaded.set(name, driver);
  return driver;
}

/** better-sqlite3's `Database` constructor. */
export function sqliteDriver(): typeof BetterSqlite3 {
  return load('better-sqlite3') as typeof BetterSqlite3;
}

/** The `pg` module. */
export function postgresDriver(): typeof Pg {
  return load('pg') as typeof Pg;
}
