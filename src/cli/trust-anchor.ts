import { resolveConfig } from '../app/index.js';
import { CanonryError, isCanonryError } from '../core/index.js';
import { Keyring } from '../trust/index.js';
import { readPem } from './io.js';

/** The flags that say where a revocation list comes from. */
export interface RevocationFlags {
  revocations?: string;
  /** False when `--no-revocation` was given. */
  revocation?: boolean;
  data?: string;
}

/**
 * The revocation list to check against: `--revocations`, else the data directory's own list (its
 * signature is still checked against the pinned root), else — when the input carries a root-signed
 * list of its own (`carried`) — undefined so that list is used, else a clear error unless
 * `--no-revocation`.
 */
export async function revocationListFor(
  flags: RevocationFlags,
  carried = false,
): Promise<string | undefined> {
  if (flags.revocation === false) return undefined;
  if (flags.revocations !== undefined) return readPem(flags.revocations, '--revocations');
  try {
    const keyring = await Keyring.open(resolveConfig({ dataDir: flags.data }).dataDir);
    return keyring.revocationListPem();
  } catch (err) {
    if (!isCanonryError(err, 'KEYRING_MISSING')) throw err;
  }
  if (carried) return undefined;
  throw new CanonryError(
    'INVALID_ARGUMENT',
    'no revocation list: pass --revocations <file> (`canonry keys crl`), --data <dir>, or --no-revocation',
  );
}
