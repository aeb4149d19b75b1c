import { unwatchFile, watchFile } from 'node:fs';
import { Keyring, keyringIndexPath } from '../trust/index.js';

/** The keyring a long-running process should use right now. */
export interface WatchedKeyring {
  current(): Keyring;
  stop(): void;
}

/** How often the index is looked at, and who is told of a keyring that is not taken. */
export interface KeyringWatchOptions {
  readonly intervalMs?: number;
  /** A keyring with another root appeared in keys/: it is not used (its root fingerprint). */
  readonly onForeignRoot?: (root: string) => void;
}

/**
 * Follows `keys rotate` and `keys revoke` run by another process: when the keyring index changes on
 * disk the keyring is reopened, so a running server signs with the new issuer and serves the new
 * revocation list without a restart. A keyring that fails to reopen (mid-write, corrupt) leaves the
 * last good one in place, and so does one with another root (keys/ swapped for another data
 * directory's, or a new keyring made where the real one was lost): the database is bound to one
 * root, and signing under another would break every chain it checkpoints.
 */
export async function watchKeyring(
  dataDir: string,
  initial: Keyring,
  { intervalMs = 1_000, onForeignRoot }: KeyringWatchOptions = {},
): Promise<WatchedKeyring> {
  let keyring = initial;
  let stopped = false;
  const index = keyringIndexPath(dataDir);
  const onChange = () => {
    Keyring.open(dataDir).then(
      (reopened) => {
        // A reopen that ends after `stop` is not taken, nor reported: the runtime has closed.
        if (stopped) return;
        if (reopened.rootFingerprint !== initial.rootFingerprint) {
          onForeignRoot?.(reopened.rootFingerprint);
          return;
        }
        keyring = reopened;
      },
      () => undefined,
    );
  };
  watchFile(index, { interval: intervalMs, persistent: false }, onChange);
  return {
    current: () => keyring,
    stop: () => {
      stopped = true;
      unwatchFile(index, onChange);
    },
  };
}
