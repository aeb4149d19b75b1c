// A runtime on either storage engine for suites that loop over both, with what ends it.
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { freshRuntime, tempDir } from './runtime.js';
import { freshPostgresSchema } from './stores.js';

/**
 * A runtime on the embedded SQLite file of a fresh data directory, or on a fresh schema of the real
 * PostgreSQL; `close` closes it, drops the schema and removes the directory.
 */
export async function runtimeOn(
  engine: 'sqlite' | 'postgres',
): Promise<{ runtime: CanonryRuntime; close: () => Promise<void> }> {
  if (engine === 'sqlite') return freshRuntime();
  const { dir, cleanup } = tempDir();
  const pg = await freshPostgresSchema();
  const runtime = await createCanonry({ dataDir: dir, db: pg.url, logLevel: 'silent' });
  return {
    runtime,
    close: async () => {
      await runtime.close();
      await pg.drop();
      cleanup();
    },
  };
}
