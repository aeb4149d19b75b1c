// What the disk-failure suites do to a real disk: run a privileged command (mount, setpriv,
// prlimit) where this machine permits it, and fill a file system to its last byte.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { tempDir } from './runtime.js';

/**
 * Runs `command`; false where it is not permitted here, with a warning naming `suite` — never under
 * CI=true, where the suites that need it must fail rather than skip.
 */
export function permitted(suite: string, what: string, command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'pipe' });
    return true;
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`${what} is required in CI: ${err}`);
    console.warn(`${suite} skipped: ${what} is not possible here (${err})`);
    return false;
  }
}

/** Writes `path` until its file system is full, in smaller and smaller pieces. */
export function fill(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [65_536, 4_096, 512]) {
      const piece = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, piece);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** A 4 MiB tmpfs mounted on a fresh temporary folder, where mounting is permitted. */
export interface SmallDisk {
  readonly dir: string;
  /** False where mounting is not permitted here (never under CI=true: {@link permitted}). */
  readonly mounted: boolean;
  /** Unmounts it and removes the folder. */
  release(): void;
}

export function smallTmpfs(suite: string, prefix: string): SmallDisk {
  const { dir, cleanup } = tempDir(prefix);
  const mounted = permitted(suite, 'a tmpfs mount', 'mount', [
    '-t',
    'tmpfs',
    '-o',
    'size=4m',
    'tmpfs',
    dir,
  ]);
  return {
    dir,
    mounted,
    release() {
      if (mounted) execFileSync('umount', [dir]);
      cleanup();
    },
  };
}
