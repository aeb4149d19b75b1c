import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CanonryError, isCanonryError } from '../core/index.js';
import { claimStore, type Store, type StoreIdentity } from '../store/index.js';
import { fileFailure, Keyring, keysDirectory, listKeyringDirectory } from '../trust/index.js';
import { writePrivateFile } from './private-file.js';

/** The file in a data directory that names the store it belongs to. */
export const STORE_FILE = 'store.json';

/**
 * Binds a data directory and its keyring to the database: the database records the root every
 * journal in it is signed under (the first process to claim it decides), and the data directory
 * records which database it was set up with. A process whose keyring has another root, or whose
 * data directory belongs to another database, refuses to start: its signatures would not verify
 * for the others, and its checkpoints would break their `journal verify`.
 *
 * `recorded` is `store.json` as read once at start ({@link readStoreRecord}), the same record every
 * check before it judged. When there was none, `store.json` is written once, atomically, and never
 * over one another process wrote meanwhile (a start of the same directory on another database):
 * that one is compared as a recorded one is. A data directory on a full disk (STORE_FULL) or one
 * canonry may not write (STORE_UNAVAILABLE) refuses to start naming the file, and keeps no part of it.
 */
export async function bindStore(
  store: Store,
  dataDir: string,
  rootFingerprint: string,
  recorded: StoreRecord | undefined,
): Promise<StoreIdentity> {
  const identity = await claimStore(store, rootFingerprint);
  if (identity.root_fingerprint !== rootFingerprint) {
    throw new CanonryError(
      'KEYRING_MISMATCH',
      `the database ${store.description} is signed under root ${identity.root_fingerprint}, but the keyring in ${dataDir} has root ${rootFingerprint}: every server on one database must share its root (see "Production keys and scale-out" in the README)`,
      { store_root: identity.root_fingerprint, keyring_root: rootFingerprint },
    );
  }
  const found =
    recorded ??
    (await writeStoreRecordOnce(
      dataDir,
      `${JSON.stringify({ store_id: identity.store_id, database: store.description }, null, 2)}\n`,
    ));
  if (found !== undefined && found.store_id !== identity.store_id) {
    throw new CanonryError(
      'STORE_MISMATCH',
      `${dataDir} was set up with store ${String(found.store_id)}, but ${store.description} is store ${identity.store_id}: point it at its own database, or use another data directory`,
      { data_store: String(found.store_id), database_store: identity.store_id },
    );
  }
  return identity;
}

/**
 * Writes a new `store.json` unless one appeared since it was read: undefined when this one is in
 * place, else the record that is (another process's, judged by the caller).
 */
async function writeStoreRecordOnce(
  dataDir: string,
  contents: string,
): Promise<StoreRecord | undefined> {
  const file = join(dataDir, STORE_FILE);
  try {
    await writePrivateFile(dataDir, STORE_FILE, contents, { replace: false });
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const now = readStoreRecord(dataDir);
  if (now === undefined)
    throw new CanonryError('STORE_UNAVAILABLE', `${file} vanished as it was written`);
  return now;
}

/** What `store.json` records, as read once at start and handed to every check that needs it. */
export interface StoreRecord {
  readonly store_id: unknown;
  readonly database: unknown;
}

/**
 * `store.json` of a data directory, read once (non-blocking: a FIFO in its place is MALFORMED_FILE,
 * never a wait), or undefined when there is none yet; text that is not a JSON object is
 * MALFORMED_FILE.
 */
export function readStoreRecord(dataDir: string): StoreRecord | undefined {
  const file = join(dataDir, STORE_FILE);
  const text = readRecord(file);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CanonryError('MALFORMED_FILE', `${file} is not JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CanonryError('MALFORMED_FILE', `${file} is not a JSON object`);
  }
  const { store_id, database } = parsed as Record<string, unknown>;
  return { store_id, database };
}

/** The text of `store.json`, or undefined when there is none yet. */
function readRecord(file: string): string | undefined {
  let fd: number;
  try {
    // Non-blocking: a FIFO in its place is refused below instead of waiting for a writer.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileFailure(error, 'read', file);
  }
  try {
    if (!fstatSync(fd).isFile()) {
      throw new CanonryError('MALFORMED_FILE', `${file} is not a regular file`, { path: file });
    }
    return readFileSync(fd, 'utf8');
  } catch (error) {
    if (isCanonryError(error)) throw error;
    throw fileFailure(error, 'read', file);
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses to make keys for a data directory already bound to a database (`store.json`) whose
 * keyring is gone — no `keys/`, or one holding nothing but the HMAC keys' folder (`keys hmac` may
 * have made it since): new keys would match none of the journal's signatures, and would stand where
 * the operator restores the real ones. Called before a keyring is opened or created; `bound` is
 * whether the data directory has a `store.json` (as read at start, when it was).
 */
export async function refuseKeyringOverBoundStore(
  dataDir: string,
  bound: boolean = existsSync(join(dataDir, STORE_FILE)),
): Promise<void> {
  if (!bound) return;
  const keys = keysDirectory(dataDir);
  const names = await listKeyringDirectory(keys);
  if (names !== undefined && names.length > 0) return;
  throw new CanonryError(
    'KEYRING_MISSING',
    `${keys} ${names === undefined ? 'is missing' : 'holds no keyring'}, but ${dataDir} is bound to a database (${STORE_FILE}): restore keys/ from its backup; new keys would not match the journal's signatures`,
  );
}

/** Whether `keys/` holds a keyring, or one being made: anything but the HMAC keys' folder. */
export async function holdsKeyring(dataDir: string): Promise<boolean> {
  return ((await listKeyringDirectory(keysDirectory(dataDir)))?.length ?? 0) > 0;
}

/**
 * Makes the development keyring of a data directory that has none, once its database is open: a
 * database that cannot be opened (a mistyped `--db`, a file that is not SQLite) leaves no keys
 * behind, and one already signed under a root — another data directory's, a shared PostgreSQL's —
 * is KEYRING_MISMATCH naming that root (as it was once a new keyring had been made and bound): a
 * new root could never match it, and its keys would stand where that root's keyring belongs. A
 * keyring another process made meanwhile is opened.
 */
export async function keyringForOpenStore(store: Store, dataDir: string): Promise<Keyring> {
  if (!(await holdsKeyring(dataDir))) {
    const claimed = await store.all<{ root_fingerprint: string }>(
      'SELECT root_fingerprint FROM canonry_store WHERE id = 1',
    );
    if (claimed[0] !== undefined && !(await holdsKeyring(dataDir))) {
      throw new CanonryError(
        'KEYRING_MISMATCH',
        `the database ${store.description} is signed under root ${claimed[0].root_fingerprint}, and ${keysDirectory(dataDir)} holds no keyring: a new one would have another root, so none is made; put that root's keyring in keys/ (canonry keys init --root-cert … for a root kept offline; see "Production keys and scale-out" in the README)`,
        { store_root: claimed[0].root_fingerprint },
      );
    }
  }
  return Keyring.openOrInit(dataDir);
}
