import { unwatchFile, watchFile } from 'node:fs';
import { Keyring, keyringIndexPath } from '../trust/index.js';

/** The keyring a long-running process should use right now. */
export interface WatchedKeyring {
  current(): Keyring;
  stop(): void;
}

/**
 * Follows `keys rotate` and `keys revoke` run by another process: when the keyring index changes on
 * disk the keyring is reopened, so a running server signs with the new issuer and serves the new
 * revocation list without a restart. A keyring that fails to reopen (mid-write, corrupt) leaves the
 * last good one in place.
 */
export async function watchKeyring(
  dataDir: string,
  initial: Keyring,
  intervalMs = 1_000,
): Promise<WatchedKeyring> {
  let keyring = initial;
  const index = keyringIndexPath(dataDir);
  const onChange = () => {
    Keyring.open(dataDir).then(
      (reopened) => {
        keyring = reopened;
      },
      () => undefined,
    );
  };
  watchFile(index, { interval: intervalMs, persistent: false }, onChange);
  return {
    current: () => keyring,
    stop: () => unwatchFile(index, onChange),
  };
}
