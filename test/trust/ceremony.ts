import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Keyring, OfflineRoot } from '../../src/trust/index.js';
import { freshDir } from './temp-dir.js';

/** An offline root in a temp directory of its own. */
export async function offlineRoot(): Promise<{ root: OfflineRoot; rootDir: string }> {
  const rootDir = join(await freshDir(), 'root');
  return { root: await OfflineRoot.create(rootDir), rootDir };
}

/** A keyring pinned to `root`, with no issuer yet. */
export async function pinnedKeyring(
  root: OfflineRoot,
): Promise<{ ring: Keyring; dataDir: string }> {
  const dataDir = await freshDir();
  const ring = await Keyring.init(dataDir, {
    offlineRoot: {
      certificatePem: root.certificatePem,
      revocationListPem: root.revocationListPem(),
    },
  });
  return { ring, dataDir };
}

/** One round of the ceremony: a request from `ring`, signed by `root`, installed in `ring`. */
export async function certify(ring: Keyring, root: OfflineRoot) {
  const request = await ring.requestIssuer();
  const signed = await root.signRequest(request.certificateRequestPem);
  return ring.installIssuer(signed.certificatePem);
}

/** A keyring pinned to a fresh offline root, with an active issuer. */
export async function productionKeyring() {
  const { root, rootDir } = await offlineRoot();
  const { ring, dataDir } = await pinnedKeyring(root);
  await certify(ring, root);
  return { root, rootDir, ring, dataDir };
}

/** Every file name and its bytes under `<dataDir>/keys`, to show a refused step changed nothing. */
export async function keysSnapshot(dataDir: string): Promise<Record<string, string>> {
  const dir = join(dataDir, 'keys');
  const snapshot: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    snapshot[name] = await readFile(join(dir, name), 'utf8');
  }
  return snapshot;
}
