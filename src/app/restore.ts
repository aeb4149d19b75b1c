import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fchmodSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { CanonryError } from '../core/index.js';
import {
  type ExclusiveSqlite,
  holdSqliteExclusive,
  refuseIrregularDatabaseFile,
  syncPath,
} from '../store/index.js';
import { fileWriteFailure } from './backup.js';
import { resolveConfig } from './config.js';
import {
  anchorOf,
  type CopiedChain,
  checkDatabaseCopy,
  embeddedDatabase,
  type Progress,
  refuseUnboundDatabaseFile,
} from './database-copy.js';
import { COPY_COMPANIONS, removeInterruptedCopies, temporaryCopy } from './interrupted-copies.js';
import { readStoreRecord } from './store-binding.js';

/** What to restore, and into which data directory. */
export interface RestoreOptions {
  readonly dataDir?: string | undefined;
  readonly db?: string | undefined;
  /** The backup file (`canonry backup`, or any canonry SQLite database that passes the checks). */
  readonly from: string;
  readonly progress?: Progress;
  /** The clock that names the replaced database. */
  readonly now?: () => Date;
}

/** The restore done. */
export interface RestoreSummary {
  /** The live database, now the backup's content. */
  readonly database: string;
  readonly from: string;
  /** Where the database it replaced was kept (null when there was none). */
  readonly replaced: string | null;
  readonly store_id: string;
  readonly projects: readonly CopiedChain[];
}

/**
 * Puts a backup in place of a data directory's SQLite database, in an order that cannot make things
 * worse:
 *
 * 1. the live database is held exclusively (`holdSqliteExclusive`): STORE_IN_USE while any process —
 *    `canonry serve`, another command — has it open, and nothing can open it until the end;
 * 2. the backup is copied next to it (0600, fsynced) and the copy checked: integrity, a canonry
 *    database of this data directory's store (STORE_MISMATCH otherwise) and root, every chain
 *    verified with the keyring. A refusal leaves the live database as it was;
 * 3. the live database's WAL is folded into it and it leaves WAL mode, so the one file is the whole
 *    old database; it is kept under `<name>.replaced-<time>` (a hard link: the live name never stops
 *    naming a whole database), never deleted;
 * 4. only then are the old database's stale `-wal`/`-shm` removed, and the checked copy renamed over
 *    the live name (atomic; the folder fsynced after each step).
 */
export async function restoreDatabase(options: RestoreOptions): Promise<RestoreSummary> {
  const progress = options.progress ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const config = resolveConfig({ dataDir: options.dataDir, db: options.db });
  const from = resolve(options.from);
  // Read once, non-blocking (a FIFO in its place is MALFORMED_FILE, never a wait): the store the
  // copy is checked against is the one every check before it saw.
  const record = readStoreRecord(config.dataDir);
  const live = embeddedDatabase(config.dataDir, config.db, record);
  // What stands in its place must be a database (or nothing): a FIFO, device or directory is named.
  refuseIrregularDatabaseFile(live);
  refuseUnboundDatabaseFile(config.dataDir, live, record);
  const fromStat = statOrUndefined(from);
  if (fromStat === undefined || !fromStat.isFile()) {
    throw new CanonryError(
      'FILE_UNREADABLE',
      `the backup file ${from} ${fromStat === undefined ? 'does not exist' : 'is not a regular file'}`,
      { path: from },
    );
  }
  const liveStat = statOrUndefined(live);
  if (liveStat !== undefined && liveStat.ino === fromStat.ino && liveStat.dev === fromStat.dev) {
    throw new CanonryError('INVALID_ARGUMENT', `${from} is the live database itself`);
  }
  const folder = dirname(live);
  if (statOrUndefined(folder)?.isDirectory() !== true) {
    throw new CanonryError('INVALID_ARGUMENT', `the folder of the database ${live} does not exist`);
  }
  const trust = await anchorOf(config.dataDir);

  const hold: ExclusiveSqlite | undefined =
    liveStat === undefined ? undefined : holdSqliteExclusive(live);
  const temp = temporaryCopy(folder, basename(live), 'restore');
  try {
    progress(
      hold === undefined
        ? `no database at ${live} yet`
        : `no other process has ${live} open; holding it until the restore ends`,
    );
    // Held exclusively: any other restore of it would hold it too, so no copy found is being written.
    if (hold !== undefined) {
      removeInterruptedCopies(folder, basename(live), 'restore', (owner) => owner === '', progress);
    }
    try {
      copyPrivate(from, temp);
      syncPath(temp);
    } catch (err) {
      throw fileWriteFailure(err, temp);
    }
    progress(`copied ${from} beside it (${statSync(temp).size} bytes, fsynced)`);
    const report = await checkDatabaseCopy(temp, from, trust, progress);
    const recorded = record?.store_id;
    if (recorded !== undefined && recorded !== report.store_id) {
      throw new CanonryError(
        'STORE_MISMATCH',
        `${from} is a backup of store ${report.store_id}, but ${config.dataDir} was set up with store ${String(recorded)}`,
        { data_store: String(recorded), backup_store: report.store_id },
      );
    }
    let replaced: string | null;
    try {
      replaced = setAside(live, hold, now(), progress);
      for (const suffix of COPY_COMPANIONS) {
        if (existsSync(`${live}${suffix}`)) {
          rmSync(`${live}${suffix}`, { force: true });
          progress(`removed the replaced database's stale ${basename(live)}${suffix}`);
        }
      }
      renameSync(temp, live);
      syncPath(folder);
    } catch (err) {
      throw fileWriteFailure(err, live);
    }
    progress(`restored ${from} as ${live}`);
    return {
      database: live,
      from,
      replaced,
      store_id: report.store_id,
      projects: report.projects,
    };
  } finally {
    hold?.release();
    for (const suffix of ['', ...COPY_COMPANIONS]) rmSync(`${temp}${suffix}`, { force: true });
  }
}

/**
 * Keeps the live database under `<name>.replaced-<time>`: sealed first (its WAL folded in, WAL mode
 * left), so the one file holds all of it, then hard-linked under the new name and the folder synced.
 * With no live database, a WAL left without one is kept the same way (it is data, and beside a new
 * database SQLite would replay it into it).
 */
function setAside(
  live: string,
  hold: ExclusiveSqlite | undefined,
  at: Date,
  progress: Progress,
): string | null {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  let aside = `${live}.replaced-${stamp}`;
  for (let n = 1; existsSync(aside) || existsSync(`${aside}-wal`); n++) {
    aside = `${live}.replaced-${stamp}-${n}`;
  }
  if (hold === undefined) {
    if (!existsSync(`${live}-wal`)) return null;
    renameSync(`${live}-wal`, `${aside}-wal`);
    syncPath(dirname(live));
    progress(`kept a WAL left without its database as ${aside}-wal`);
    return null;
  }
  hold.seal();
  if (existsSync(`${live}-wal`)) {
    throw new CanonryError(
      'STORE_UNAVAILABLE',
      `${live}-wal is still there after the database left WAL mode; nothing was replaced`,
    );
  }
  progress(`folded the WAL of ${live} into it`);
  try {
    linkSync(live, aside);
  } catch (err) {
    // A file system without hard links: a copy of the sealed file, which nothing can write meanwhile.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
    copyFileSync(live, aside, constants.COPYFILE_EXCL);
    chmodSync(aside, 0o600);
    syncPath(aside);
  }
  syncPath(dirname(live));
  progress(`kept the replaced database as ${aside}`);
  return aside;
}

/**
 * Copies `from` into a new file `to` that is 0600 from its creation to its end: `copyFileSync` would
 * give it the backup's own mode (a backup kept 0644, or 0666, made the restored live database
 * readable, or writable, by every user), and a chmod after it would leave a window.
 */
function copyPrivate(from: string, to: string): void {
  const out = openSync(to, 'wx', 0o600);
  try {
    fchmodSync(out, 0o600); // the umask may have narrowed it; never wider
    const input = openSync(from, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const buffer = Buffer.allocUnsafe(1 << 20);
      for (;;) {
        const n = readSync(input, buffer, 0, buffer.length, null);
        if (n === 0) break;
        for (let done = 0; done < n; ) done += writeSync(out, buffer, done, n - done);
      }
    } finally {
      closeSync(input);
    }
  } finally {
    closeSync(out);
  }
}

function statOrUndefined(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
