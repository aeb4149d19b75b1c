import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CanonryError } from '../core/index.js';

/** File names inside `<dataDir>/keys/`. */
export const KEYRING_FILES = {
  index: 'keyring.json',
  rootCertificate: 'root.cert.pem',
  rootKey: 'root.key.pem',
  revocationList: 'revocation.crl.pem',
} as const;

/** The certificate file of issuer number `n`. */
export function issuerCertificateFile(n: number): string {
  return `issuer-${n}.cert.pem`;
}

/** The private key file of issuer number `n`; only the active issuer's exists. */
export function issuerKeyFile(n: number): string {
  return `issuer-${n}.key.pem`;
}

/** Matches issuer key file names and captures the issuer number. */
export const ISSUER_KEY_FILE = /^issuer-([1-9][0-9]{0,8})\.key\.pem$/;

/** The largest keyring file read; anything bigger is not a keyring file. */
const MAX_FILE_BYTES = 1024 * 1024;

/** `<dataDir>/keys`. */
export function keysDirectory(dataDir: string): string {
  return join(dataDir, 'keys');
}

/** The names in `dir`, or undefined when it does not exist. */
export async function listDirectory(dir: string): Promise<string[] | undefined> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CanonryError('KEYRING_CORRUPT', `cannot list ${dir}`);
  }
}

/** Creates `dir` (and its parents) and forces mode 0700 on it. */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}

/**
 * Writes a file atomically with mode 0600: a fresh temp file in the same directory, fsync, rename
 * over the target, then fsync the directory so the rename itself survives a crash.
 */
export async function writeFileAtomic(dir: string, name: string, contents: string): Promise<void> {
  const target = join(dir, name);
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.chmod(0o600); // the umask may have narrowed or the platform widened the mode
    await handle.writeFile(contents, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, target);
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}

/** Reads a keyring file as hostile input: a missing, non-regular or oversized file is corrupt. */
export async function readKeyringFile(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    throw new CanonryError('KEYRING_CORRUPT', `keyring file ${name} is missing or unreadable`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) {
      throw new CanonryError('KEYRING_CORRUPT', `keyring file ${name} is not a small regular file`);
    }
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof CanonryError) throw error;
    throw new CanonryError('KEYRING_CORRUPT', `keyring file ${name} is unreadable`);
  } finally {
    await handle.close();
  }
}

/** Removes a file if it exists. */
export async function removeFile(dir: string, name: string): Promise<void> {
  await rm(join(dir, name), { force: true });
}

/** The keyring index file: it is written last on every change, so watching it sees every commit. */
export function keyringIndexPath(dataDir: string): string {
  return join(keysDirectory(dataDir), KEYRING_FILES.index);
}
