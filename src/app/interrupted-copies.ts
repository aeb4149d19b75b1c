import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Progress } from './database-copy.js';

/** What wrote a temporary copy: a restore (holding the live database) or a backup. */
export type CopyKind = 'restore' | 'backup';

/** SQLite's companions of a database file, which a copy may have too. */
export const COPY_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * A new temporary copy's path beside `name` in `folder`: `.<name>.<kind>-<owner><12 hex>.tmp`, so
 * the copy of a process killed before its rename can be told from anything else and removed.
 */
export function temporaryCopy(folder: string, name: string, kind: CopyKind, owner = ''): string {
  return join(folder, `.${name}.${kind}-${owner}${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Removes the copies of `kind` beside `name` in `folder` (and their SQLite companions) whose owner
 * part `abandoned` says no live process writes any more; anything else is left alone.
 */
export function removeInterruptedCopies(
  folder: string,
  name: string,
  kind: CopyKind,
  abandoned: (owner: string) => boolean,
  progress: Progress,
): void {
  const prefix = `.${name}.${kind}-`;
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const match = /^(.*?)[0-9a-f]{12}\.tmp(?:-wal|-shm|-journal)?$/.exec(
      entry.slice(prefix.length),
    );
    if (match === null || !abandoned(match[1]!)) continue;
    rmSync(join(folder, entry), { force: true });
    progress(`removed ${entry}, the copy of a ${kind} that was interrupted`);
  }
}

/**
 * This process as the owner of a backup's copy: the host (a hash of its name) and the pid. Backups
 * run beside one another and beside `serve`, holding nothing exclusively, so a copy is abandoned only
 * when its writer is known to be gone: made on this host by a pid that no longer runs.
 */
export function backupOwner(): string {
  return `${hostTag()}-${process.pid}-`;
}

/** Whether a backup copy's owner part names a process of this host that has ended. */
export function backupAbandoned(owner: string): boolean {
  const match = /^([0-9a-f]{8})-([1-9][0-9]{0,9})-$/.exec(owner);
  if (match === null || match[1] !== hostTag()) return false;
  try {
    process.kill(Number(match[2]), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function hostTag(): string {
  return createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
}
