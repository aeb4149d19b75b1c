import { existsSync, linkSync, lstatSync, renameSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CanonryError } from '../core/index.js';

/** A file a command writes (a key, a certificate, an event, a backup), and whether it may replace one. */
export interface OutputTarget {
  /** How errors name it: the flag (`--out`) or what it is (`the backup file`). */
  readonly label: string;
  readonly force?: boolean;
}

const EXISTS = 'it exists; pass --force to replace it';

/** INVALID_ARGUMENT: the output path cannot be written, and why. */
export function outputRefusal(path: string, target: OutputTarget, why: string): CanonryError {
  return new CanonryError('INVALID_ARGUMENT', `cannot write ${target.label} ${path} (${why})`, {
    path,
  });
}

/**
 * Refuses an output path before the work that fills it is done: one whose folder does not exist,
 * one that exists without `force` (a slip of the flag must not replace a key, a database or anything
 * else), and, even with it, anything but a regular file (a link, a device or a directory would be
 * swapped for a file).
 */
export function checkOutputPath(path: string, target: OutputTarget): void {
  // Its folder first: found missing only at the write, the work (a key made, an issuer signed or
  // revoked) would be done and kept by a command that reports failure.
  let folder: ReturnType<typeof statSync> | undefined;
  try {
    folder = statSync(dirname(resolve(path)));
  } catch {
    folder = undefined;
  }
  if (folder?.isDirectory() !== true) {
    throw outputRefusal(path, target, 'its folder does not exist');
  }
  let existing: ReturnType<typeof lstatSync>;
  try {
    existing = lstatSync(path);
  } catch {
    return;
  }
  if (existing.isDirectory()) throw outputRefusal(path, target, 'it is a directory');
  if (target.force !== true) throw outputRefusal(path, target, EXISTS);
  if (!existing.isFile()) throw outputRefusal(path, target, 'it is not a regular file');
}

/**
 * Gives a finished file beside `path` its name in one step: a rename over `path` when `force`, else a
 * hard link that fails if `path` appeared meanwhile, so a file someone else wrote is never clobbered
 * (the caller removes `temp` after). Other errors are the file system's, thrown as they are.
 */
export function publishOutput(temp: string, path: string, target: OutputTarget): void {
  if (target.force === true) {
    renameSync(temp, path);
    return;
  }
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw outputRefusal(path, target, EXISTS);
    // A file system without hard links: the check before the work is all there is.
    if (existsSync(path)) throw err;
    renameSync(temp, path);
  }
}
