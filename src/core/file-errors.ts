/**
 * Why the file system refused, by errno: what an operator reads of a failure to make, open, read or
 * write a file or a folder ("it"). One list for every module that touches files (the SQLite store,
 * the keyring's files, backups), so the same cause reads the same everywhere.
 */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space is left on its disk',
  EDQUOT: 'its disk quota is used up',
  EROFS: 'its file system is read-only',
  EACCES: 'permission denied: it and its folder must be writable by the user canonry runs as',
  EPERM: 'not permitted: it and its folder must be writable by the user canonry runs as',
  EIO: 'the disk under it failed',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of its path is a file, not a folder',
  ELOOP: 'its path has too many symbolic links',
  ENAMETOOLONG: 'its path is too long',
};

/** The errno a failure carries (`ENOSPC`, `EACCES`, …), or undefined when it carries none. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** What an errno means to an operator; undefined for one not named here. */
export function errnoCause(code: string): string | undefined {
  return CAUSES[code];
}

/** Whether an errno says no space is left (ENOSPC, EDQUOT): such a failure is STORE_FULL. */
export function isNoSpace(code: string): boolean {
  return code === 'ENOSPC' || code === 'EDQUOT';
}
