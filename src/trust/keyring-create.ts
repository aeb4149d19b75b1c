import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CanonryError } from '../core/index.js';
import {
  ensurePrivateDirectory,
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  keysDirectory,
  listDirectory,
  removeFile,
  writeFileAtomic,
} from './keyring-files.js';
import { serializeKeyringIndex } from './keyring-index.js';
import { mintIssuer, mintRoot, privateKeyPem } from './keyring-state.js';
import { createRevocationList } from './revocation-list-builder.js';

const INIT_LOCK = '.init.lock';

function exists(dir: string): CanonryError {
  return new CanonryError('KEYRING_EXISTS', `${dir} already holds a keyring (or part of one)`);
}

/**
 * Writes a new keyring into `<dataDir>/keys/`: root, issuer 1 and an empty revocation list
 * (number 1), with `keyring.json` written last so a crash never leaves a half keyring that opens.
 * An exclusive lock file keeps two concurrent inits from interleaving.
 */
export async function createKeyring(dataDir: string, now: Date): Promise<void> {
  const dir = keysDirectory(dataDir);
  const before = await listDirectory(dir);
  if (before !== undefined && before.length > 0) throw exists(dir);
  await ensurePrivateDirectory(dir);
  let lock: Awaited<ReturnType<typeof open>>;
  try {
    lock = await open(join(dir, INIT_LOCK), 'wx', 0o600);
  } catch {
    throw exists(dir);
  }
  await lock.close();
  const names = await listDirectory(dir);
  if (names?.length !== 1) throw exists(dir);

  const root = mintRoot(now);
  const issuer = mintIssuer(1, root, now);
  const list = createRevocationList(1n, [], root, now);
  await writeFileAtomic(dir, KEYRING_FILES.rootKey, privateKeyPem(root.privateKey));
  await writeFileAtomic(dir, KEYRING_FILES.rootCertificate, root.pem);
  await writeFileAtomic(dir, issuerCertificateFile(1), issuer.pem);
  await writeFileAtomic(dir, issuerKeyFile(1), privateKeyPem(issuer.privateKey));
  await writeFileAtomic(dir, KEYRING_FILES.revocationList, list);
  const index = {
    format: 1 as const,
    root_fingerprint: root.fingerprint,
    active_issuer: issuer.entry.fingerprint,
    issuers: [issuer.entry],
  };
  await writeFileAtomic(dir, KEYRING_FILES.index, serializeKeyringIndex(index));
  await removeFile(dir, INIT_LOCK);
}
