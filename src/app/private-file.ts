import { stat } from 'node:fs/promises';
import { fileFailure, makePrivateDirectory, writeFileAtomic } from '../trust/index.js';

/**
 * Writes `name` in `dir` atomically with mode 0600 (a temp file, fsync, rename, the directory
 * synced; a failure leaves the file as it was and no temp file), creating `dir` 0700 if needed: what
 * the data directory holds is nobody else's to read. A disk that is full is STORE_FULL, one canonry
 * may not write (read-only, another owner's) STORE_UNAVAILABLE, naming the file.
 */
export async function writePrivateFile(
  dir: string,
  name: string,
  contents: string,
  options: { replace?: boolean } = {},
): Promise<void> {
  await makePrivateDirectory(dir);
  await writeFileAtomic(dir, name, contents, options);
}

/**
 * Creates the data directory 0700; an existing one wider than that is reported (never narrowed: it
 * may be a directory the user shares on purpose), so the operator can tighten it. One that cannot
 * be made is typed as {@link writePrivateFile}'s failures are.
 */
export async function ensureDataDirectory(dir: string): Promise<{ wide: boolean }> {
  await makePrivateDirectory(dir);
  try {
    return { wide: ((await stat(dir)).mode & 0o077) !== 0 };
  } catch (error) {
    throw fileFailure(error, 'read', dir);
  }
}
