import { mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CanonryError } from './errors.js';

/**
 * `mkdir -p` with mode 0700, one folder at a time: the walk up to the first folder that exists and
 * back down is bounded by the path's parts. Node's recursive mkdir is not: where a folder exists but
 * takes no new entry and says ENOENT (`/proc/self/x`), it tries the parent again and again for ever;
 * and it says ENOENT when a parent refuses the new folder, where a single mkdir says why.
 *
 * A path part that is a file, or a folder that takes no new folder, is STORE_UNAVAILABLE naming it;
 * any other refusal is thrown as the file system's own error (with its errno), for the caller to
 * type as it types its other file failures.
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const found = entryAt(at);
    if (found !== undefined) {
      if (!found.isDirectory()) throw folderRefused(dir, `${at} is not a folder`, 'ENOTDIR');
      break;
    }
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(folder, { throwIfNoEntry: false })?.isDirectory()) continue;
      if (code === 'EEXIST') throw folderRefused(dir, `${folder} is not a folder`, 'ENOTDIR');
      if (code === 'ENOENT') {
        throw folderRefused(dir, `${dirname(folder)} takes no new folder`, 'ENOENT');
      }
      throw error;
    }
  }
}

/** What is at `at`, or undefined when nothing is, or when a part above it is a file (found next). */
function entryAt(at: string): Stats | undefined {
  try {
    return statSync(at, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function folderRefused(dir: string, why: string, errno: string): CanonryError {
  return new CanonryError('STORE_UNAVAILABLE', `cannot create ${dir}: ${why} (${errno})`, {
    errno,
  });
}
