import { readFileSync } from 'node:fs';
import { CanonryError, isCanonryError, parseJsonText } from '../core/index.js';

/** Exit codes shared by every command. */
export const EXIT = { OK: 0, FAILED: 1, INVALID_REQUEST: 2, INTERPRETATION_DRIFT: 3 } as const;

/** Reads a file as UTF-8; FILE_UNREADABLE names the file (and the flag it came from). */
export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CanonryError('FILE_UNREADABLE', `cannot read ${what} ${path} (${reason})`, { path });
  }
}

/** Reads and parses a JSON file with the same depth bound as HTTP bodies. */
export function readJson(path: string, what: string): unknown {
  const text = readText(path, what);
  try {
    return parseJsonText(text, 128);
  } catch (err) {
    const reason = isCanonryError(err) ? err.message : 'not JSON';
    throw new CanonryError('MALFORMED_FILE', `${what} ${path}: ${reason}`, { path });
  }
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
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${lines().join('\n')}\n`);
}

/** Reports a failure on stderr (or as JSON on stdout) and sets the exit code. */
export function reportError(err: unknown, json: boolean): void {
  const typed = isCanonryError(err) ? err : null;
  const code = typed?.code ?? 'INTERNAL';
  const message = typed?.message ?? (err instanceof Error ? err.message : String(err));
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  else process.stderr.write(`canonry: ${code}: ${message}\n`);
  process.exitCode = EXIT.FAILED;
}
