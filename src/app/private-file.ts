import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes `name` in `dir` atomically with mode 0600 (a temp file, fsync, rename), creating `dir`
 * 0700 if needed: what the data directory holds is nobody else's to read.
 */
export async function writePrivateFile(dir: string, name: string, contents: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(contents, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, name));
}

/**
 * Creates the data directory 0700; an existing one wider than that is reported (never narrowed: it
 * may be a directory the user shares on purpose), so the operator can tighten it.
 */
export async function ensureDataDirectory(dir: string): Promise<{ wide: boolean }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return { wide: ((await stat(dir)).mode & 0o077) !== 0 };
}
