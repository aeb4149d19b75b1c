import { closeSync, existsSync, openSync, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { CanonryError, errnoCause, errnoOf, isNoSpace } from '../core/index.js';
import { refuseIrregularDatabaseFile, snapshotSqlite, syncPath } from '../store/index.js';
import { resolveConfig } from './config.js';
import {
  anchorOf,
  type CopiedChain,
  checkDatabaseCopy,
  embeddedDatabase,
  type Progress,
  refuseUnboundDatabaseFile,
} from './database-copy.js';
import {
  backupAbandoned,
  backupOwner,
  COPY_COMPANIONS,
  removeInterruptedCopies,
  temporaryCopy,
} from './interrupted-copies.js';
import { checkOutputPath, type OutputTarget, publishOutput } from './output-file.js';
import { readStoreRecord } from './store-binding.js';

/** What to back up, and where. */
export interface BackupOptions {
  /** The data directory (`CANONRY_DATA`, else `./.canonry`). */
  readonly dataDir?: string | undefined;
  /** Its database setting (`CANONRY_DB`): a SQLite path, or PostgreSQL (refused). */
  readonly db?: string | undefined;
  /** The backup file to write. */
  readonly out: string;
  /** Replace `out` if it exists (atomically, and only with a copy that passed every check). */
  readonly force?: boolean;
  /** Each step, as it is done. */
  readonly progress?: Progress;
  /**
   * Aborted (the CLI: on SIGINT or SIGTERM), the backup stops: its temporary copy is removed at
   * once, `out` is not written (an old one stays as it was), and it rejects with the signal's reason.
   */
  readonly signal?: AbortSignal;
}

/** The backup written. */
export interface BackupSummary {
  readonly file: string;
  readonly bytes: number;
  /** The live database it is a copy of. */
  readonly database: string;
  readonly store_id: string;
  readonly projects: readonly CopiedChain[];
  /** Never: the keyring's private keys are backed up apart, as secrets. */
  readonly keys_included: false;
}

/** Said wherever a backup is reported: the copy holds no key. */
export const KEYS_NOT_INCLUDED =
  'keys/ is not in the backup: back it up separately, as secrets (it holds the private keys, and restore verifies the backup with it)';

/**
 * A consistent copy of a data directory's SQLite database, taken while other processes (a running
 * `canonry serve`) go on writing: a `VACUUM INTO` snapshot (one read transaction; see
 * `snapshotSqlite`) into a 0600 temporary file beside `out`, fsynced, then checked — SQLite's
 * integrity check, and every project's chain verified with the data directory's keyring — and only
 * then renamed to `out` (its folder synced). A failure at any step leaves no `out` (or the old one,
 * untouched) and no temporary file; so does an abort (`signal`): the snapshot runs on a worker
 * thread, so the copy is removed as soon as the signal comes, not when SQLite returns. An existing
 * `out` is refused unless `force`. `keys/` is never copied: the backup holds the journal, not the
 * keys that sign it.
 */
export async function backupDatabase(options: BackupOptions): Promise<BackupSummary> {
  const progress = options.progress ?? (() => undefined);
  const config = resolveConfig({ dataDir: options.dataDir, db: options.db });
  const out = resolve(options.out);
  const folder = dirname(out);
  if (!isDirectory(folder)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `the folder of the backup file ${out} does not exist`,
      { path: out },
    );
  }
  const target: OutputTarget = { label: 'the backup file', force: options.force === true };
  checkOutputPath(out, target);
  // Read once, non-blocking (a FIFO in its place is MALFORMED_FILE, never a wait).
  const recorded = readStoreRecord(config.dataDir);
  const source = embeddedDatabase(config.dataDir, config.db, recorded);
  // A FIFO in its place would hold VACUUM INTO for ever, a directory or device fail as a disk would.
  refuseIrregularDatabaseFile(source);
  refuseUnboundDatabaseFile(config.dataDir, source, recorded);
  if (!existsSync(source)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `there is no database at ${source}: point --data at a data directory canonry has used`,
      { path: source },
    );
  }
  const live = realpathSync(source);
  const real = join(realpathSync(folder), basename(out));
  if ([live, `${live}-wal`, `${live}-shm`, `${live}-journal`].includes(real)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `the backup file ${out} would replace the live database; write it elsewhere`,
    );
  }
  // Its keys, its settings, its database: nothing in the data directory is a backup's to replace.
  const home = realpathSync(config.dataDir);
  if (real.startsWith(`${home}${sep}`)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `the backup file ${out} is inside the data directory ${config.dataDir}; write it elsewhere`,
      { path: out },
    );
  }
  const trust = await anchorOf(config.dataDir);

  // Backups hold nothing exclusively: only copies whose writer has ended are removed.
  removeInterruptedCopies(folder, basename(out), 'backup', backupAbandoned, progress);
  const signal = options.signal;
  signal?.throwIfAborted();
  const temp = temporaryCopy(folder, basename(out), 'backup', backupOwner());
  try {
    closeSync(openSync(temp, 'wx', 0o600));
  } catch (err) {
    throw fileWriteFailure(err, out);
  }
  const removeCopy = () => {
    for (const suffix of ['', ...COPY_COMPANIONS]) rmSync(`${temp}${suffix}`, { force: true });
  };
  const stopped = abortedBy(signal, removeCopy);
  try {
    const snapshot = snapshotSqlite(source, temp);
    // A signal that comes before the thread opens the copy is followed by the thread making it
    // anew, whole: removed again once the thread is done (the process waits for it to exit).
    const afterAbort = () => {
      if (signal?.aborted) removeCopy();
    };
    snapshot.then(afterAbort, afterAbort);
    await Promise.race([snapshot, stopped.promise]);
    const bytes = statSync(temp).size;
    progress(`snapshot: ${source} copied by VACUUM INTO (${bytes} bytes, one read transaction)`);
    syncPath(temp);
    progress('fsync: the copy is on disk');
    // Named for what it is: a refusal here is about the live database, and `out` is never written.
    const check = checkDatabaseCopy(temp, `the copy of ${source}`, trust, progress);
    const report = await Promise.race([check, stopped.promise]);
    signal?.throwIfAborted();
    try {
      publishOutput(temp, out, target);
      syncPath(folder);
    } catch (err) {
      throw fileWriteFailure(err, out);
    }
    progress(`wrote ${out}`);
    return {
      file: out,
      bytes,
      database: source,
      store_id: report.store_id,
      projects: report.projects,
      keys_included: false,
    };
  } finally {
    stopped.dispose();
    removeCopy();
  }
}

/**
 * A promise that rejects with `signal`'s reason once it is aborted, having run `onAbort` first (at
 * once, on the signal); `dispose` stops listening. Never rejects without a signal.
 */
function abortedBy(
  signal: AbortSignal | undefined,
  onAbort: () => void,
): { promise: Promise<never>; dispose: () => void } {
  if (signal === undefined) return { promise: new Promise<never>(() => undefined), dispose() {} };
  let listener: () => void = () => undefined;
  const promise = new Promise<never>((_, reject) => {
    listener = () => {
      onAbort();
      reject(signal.reason);
    };
    signal.addEventListener('abort', listener, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener('abort', listener) };
}

/**
 * A file the command could not write, typed: no space is STORE_FULL; anything else the file system
 * refused (permissions, a read-only mount) is the caller's path to fix, named with why and the errno.
 */
export function fileWriteFailure(err: unknown, path: string): unknown {
  const code = errnoOf(err);
  if (code === undefined) return err;
  const cause = errnoCause(code);
  const why = `cannot write ${path}${cause === undefined ? '' : `: ${cause}`} (${code})`;
  return isNoSpace(code)
    ? new CanonryError('STORE_FULL', why, { errno: code }, { cause: err })
    : new CanonryError('INVALID_ARGUMENT', why, { path, errno: code }, { cause: err });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
