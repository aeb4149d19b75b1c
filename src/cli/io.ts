import { isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  checkOutputPath,
  fileWriteFailure,
  type OutputTarget,
  outputRefusal,
  publishOutput,
} from '../app/index.js';
import { CanonryError, isCanonryError, isNoSpace, parseJsonText } from '../core/index.js';
import { forTerminal, jsonForTerminal } from './terminal.js';

/** An environment variable, unset when empty. */
export const env = (name: string): string | undefined => process.env[name] || undefined;

/** Exit codes shared by every command. */
export const EXIT = { OK: 0, FAILED: 1, INVALID_REQUEST: 2, INTERPRETATION_DRIFT: 3 } as const;

/** The largest input file a command reads whole, unless it says otherwise. */
export const MAX_INPUT_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a regular file as UTF-8, at most `maxBytes` of it; FILE_UNREADABLE names the file (and the
 * flag it came from). Opened non-blocking, so a FIFO given as a file is refused instead of waiting
 * for a writer; a device or directory is refused too; a file larger than the bound (or one that
 * grows past it while read) is MALFORMED_FILE before it is held in memory. Bytes that are not UTF-8
 * are MALFORMED_FILE too, instead of each becoming U+FFFD: two different files never read as the
 * same text, and a damaged key, root, list or recording is named as what it is.
 */
export function readText(path: string, what: string, maxBytes = MAX_INPUT_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CanonryError('FILE_UNREADABLE', `cannot read ${what} ${path} (${reason})`, { path });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new CanonryError('FILE_UNREADABLE', `${what} ${path} is not a regular file`, { path });
    }
    const tooLarge = () =>
      new CanonryError('MALFORMED_FILE', `${what} ${path} is over ${maxBytes} bytes`, { path });
    if (stat.size > maxBytes) throw tooLarge();
    // One byte more than it claims: a file that grew since is seen to have.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes) throw tooLarge();
        throw new CanonryError('FILE_UNREADABLE', `${what} ${path} changed while read`, { path });
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (!isUtf8(buffer.subarray(0, length))) {
      throw new CanonryError('MALFORMED_FILE', `${what} ${path} is not UTF-8`, { path });
    }
    return buffer.toString('utf8', 0, length);
  } catch (err) {
    if (isCanonryError(err)) throw err;
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CanonryError('FILE_UNREADABLE', `cannot read ${what} ${path} (${reason})`, { path });
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads and parses a JSON file with the same depth bound as HTTP bodies. JSON is UTF-8 (RFC 8259):
 * read leniently, an artifact whose bytes are not would hash as its U+FFFD reading, so two
 * different files would bind the same event. An object naming a member twice is refused too (by
 * the parser, as an HTTP body): it keeps the last, another reader the first, so an event or
 * artifact would mean one thing here and another there.
 */
export function readJson(path: string, what: string): unknown {
  const text = readText(path, what);
  let value: unknown;
  try {
    value = parseJsonText(text, 128);
  } catch (err) {
    const reason = isCanonryError(err) ? err.message : 'not JSON';
    throw new CanonryError('MALFORMED_FILE', `${what} ${path}: ${reason}`, { path });
  }
  return value;
}

/** Reads a PEM file, refusing files with no PEM block. */
export function readPem(path: string, what: string): string {
  const text = readText(path, what);
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(text)) {
    throw new CanonryError('MALFORMED_FILE', `${what} ${path} is not PEM`, { path });
  }
  return text;
}

/** Prints a result: JSON when `--json`, otherwise the human lines. */
export function emit(json: boolean, value: unknown, lines: () => string[]): void {
  process.stdout.write(
    json ? `${jsonForTerminal(value)}\n` : `${forTerminal(lines().join('\n'))}\n`,
  );
}

/** Reports a failure on stderr (or as JSON on stdout) and sets the exit code. */
export function reportError(err: unknown, json: boolean): void {
  const typed = isCanonryError(err) ? err : null;
  const code = typed?.code ?? 'INTERNAL';
  const message = typed?.message ?? (err instanceof Error ? err.message : String(err));
  if (json) process.stdout.write(`${jsonForTerminal({ error: { code, message } })}\n`);
  else process.stderr.write(`canonry: ${forTerminal(`${code}: ${message}`)}\n`);
  process.exitCode = EXIT.FAILED;
}

/** Where a command writes an output file, and whether it may replace one. */
export interface OutputFile {
  /** The flag that named it, for errors. */
  readonly flag: string;
  readonly force?: boolean | undefined;
  readonly mode?: number;
}

const targetOf = (out: OutputFile): OutputTarget => ({
  label: out.flag,
  force: out.force === true,
});

/**
 * Refuses, before a command does its work, an output path it could not write: one that exists
 * without `--force`, or that is not a regular file (a link, a device, a directory) with it.
 */
export function checkOutputFile(path: string, out: OutputFile): void {
  checkOutputPath(path, targetOf(out));
}

/**
 * Writes a command's output file (`--out`, `--event-out`): to a new file beside it, then named in
 * one step — never over an existing path without `--force`, and even with it only over a regular
 * file, never through a symbolic link, a device or a directory.
 */
export function writeOutputFile(path: string, text: string, out: OutputFile): void {
  const target = targetOf(out);
  checkOutputPath(path, target);
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: out.mode ?? 0o644 });
    publishOutput(temp, path, target);
  } catch (err) {
    if (isCanonryError(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'unwritable';
    // A full disk is not a wrong argument: STORE_FULL, as every file canonry writes.
    if (isNoSpace(code)) throw fileWriteFailure(err, `${target.label} ${path}`);
    throw outputRefusal(path, target, code);
  } finally {
    rmSync(temp, { force: true });
  }
}
