import { type CanonryRuntime, createCanonry } from '../app/index.js';
import { CanonryError, isCanonryError } from '../core/index.js';

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

/**
 * Opens the runtime for one command and always closes it. `create: false` for commands that only
 * read or check, or go on with what a data directory holds (`relay resume`): they never mint a
 * keyring (KEYRING_MISSING says what to run instead).
 * `evolution` turns the coordinator on or off whatever CANONRY_EVOLUTION says (the demo's is on).
 */
export async function withRuntime<T>(
  flags: RuntimeFlags,
  work: (runtime: CanonryRuntime) => Promise<T>,
  { create = true, evolution }: { create?: boolean; evolution?: boolean } = {},
): Promise<T> {
  let runtime: CanonryRuntime;
  try {
    runtime = await createCanonry(
      {
        dataDir: flags.data,
        db: flags.db,
        logLevel: 'silent',
        ...(evolution === undefined ? {} : { evolution }),
      },
      { create },
    );
  } catch (err) {
    if (!create && isCanonryError(err, 'KEYRING_MISSING')) {
      throw new CanonryError(
        'KEYRING_MISSING',
        `${err.message}: this command does not create a data directory; point --data at a data directory canonry has used (\`canonry serve\`, \`canonry demo\` or \`canonry keys init\` create one)`,
      );
    }
    throw err;
  }
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}
