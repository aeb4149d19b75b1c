import { DEVELOPMENT_ROOT_WARNING, type Keyring } from '../../trust/index.js';
import { checkOutputFile, emit, readText, writeOutputFile } from '../io.js';

/** Options every `keys` command takes. */
export interface KeysOptions {
  data?: string;
  json?: boolean;
  out?: string;
  force?: boolean;
}

/** The `--out` and `--force` options of a command that writes PEM. */
export const OUT_OPTIONS = {
  out: (what: string) => ['--out <file>', `write the ${what} here instead of stdout`] as const,
  force: ['--force', 'replace --out if it exists (a regular file only)'] as const,
};

/** The largest certificate, request or list file read; real ones are under a kilobyte or two. */
const MAX_INPUT_BYTES = 256 * 1024;

/**
 * Reads a PEM input file given on the command line, bounded in size; its contents are left to the
 * strict trust parsers, which refuse anything but the expected block with a typed error.
 */
export function readPemFile(path: string, what: string): string {
  return readText(path, what, MAX_INPUT_BYTES);
}

const outFile = (opts: KeysOptions) => ({ flag: '--out', force: opts.force });

/** Refuses an `--out` that could not be written, before the command does anything. */
export function checkOut(opts: KeysOptions): void {
  if (opts.out !== undefined && opts.json !== true) checkOutputFile(opts.out, outFile(opts));
}

/** Writes public PEM to `--out` when given (never over a file without `--force`), else to stdout. */
export function writePem(pem: string, opts: KeysOptions): void {
  if (opts.out === undefined) {
    process.stdout.write(pem);
    return;
  }
  writeOutputFile(opts.out, pem, outFile(opts));
}

/** A note for the operator: on stderr, so stdout stays the PEM or the JSON. */
export function note(lines: string[]): void {
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** The keyring as `keys list` shows it: JSON with `--json`, else lines. */
export function printKeyring(keyring: Keyring, opts: KeysOptions, headline: string): void {
  const issuers = keyring.issuers().map(({ fingerprint, active, revoked, createdAt }) => ({
    fingerprint,
    active,
    revoked,
    created_at: createdAt,
  }));
  const pending = keyring.pendingIssuer();
  const value = {
    root: keyring.rootFingerprint,
    development_root: keyring.development,
    root_key: keyring.rootKey,
    can_sign: keyring.canSign,
    issuers,
    pending_issuer: pending ? { number: pending.number, created_at: pending.createdAt } : null,
  };
  const rootNote = keyring.development ? ' (development root)' : ' (root key offline)';
  emit(opts.json === true, value, () => [
    headline,
    `root    ${keyring.rootFingerprint}${rootNote}`,
    ...issuers.map(
      (i) =>
        `issuer  ${i.fingerprint}${i.active ? ' (active)' : ''}${i.revoked ? ' (revoked)' : ''}`,
    ),
    ...(pending
      ? [`pending issuer ${pending.number}: awaiting its certificate from the root`]
      : []),
    ...signingLine(
      keyring,
      issuers.some((i) => i.active),
    ),
    ...(keyring.development ? [`warning: ${DEVELOPMENT_ROOT_WARNING}`] : []),
  ]);
}

/** The status line of a keyring that cannot sign now, if it cannot. */
function signingLine(keyring: Keyring, hasActive: boolean): string[] {
  const problem = keyring.signingProblem();
  if (problem === undefined) return [];
  return [hasActive ? problem.message : 'no active issuer: this keyring cannot sign yet'];
}
