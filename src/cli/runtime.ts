import { type CanonryRuntime, createCanonry } from '../app/index.js';

/** The options every command that opens the runtime accepts. */
export interface RuntimeFlags {
  data?: string;
  db?: string;
}

/** Adds `--data` and `--db` to a command. */
export const DATA_FLAG = [
  '--data <dir>',
  'data directory (CANONRY_DATA, else ./.canonry)',
] as const;
export const DB_FLAG = [
  '--db <url>',
  'postgres://… to use PostgreSQL (CANONRY_DB; default: SQLite in the data directory)',
] as const;

/** Opens the runtime for one command and always closes it. */
export async function withRuntime<T>(
  flags: RuntimeFlags,
  work: (runtime: CanonryRuntime) => Promise<T>,
): Promise<T> {
  const runtime = await createCanonry({ dataDir: flags.data, db: flags.db, logLevel: 'silent' });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
