/**
 * HMAC key files: `<dataDir>/keys/hmac/<project>/k<n>.json`, one immutable 0600 file per key in
 * 0700 directories. A key file is never rewritten: it is written to a temp file, synced, then
 * hard-linked to its name, which fails if the name exists, so two processes racing to make key
 * n end with the one that linked first and both read it. No lock, nothing to go stale.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CanonryError } from '../core/index.js';
import { fileKeyId, HMAC_KEY_BYTES, MAX_KEYS_PER_PROJECT } from './hmac-key-material.js';
import { hasKeys, ISO_INSTANT, isRecord, RAW_KEY } from './keyring-fields.js';
import {
  ensurePrivateDirectory,
  fileFailure,
  HMAC_DIRECTORY,
  keysDirectory,
  syncDirectory,
  writePrivateTemp,
} from './keyring-files.js';

const KEY_FILE = /^k([1-9][0-9]{0,4})\.json$/;
const MAX_KEY_FILE_BYTES = 4096;
/** Names tolerated in a project's folder: its keys plus leftovers of interrupted writes. */
const MAX_ENTRIES = MAX_KEYS_PER_PROJECT + 100;

/** One key file as stored. */
export interface KeyFile {
  readonly number: number;
  readonly bytes: Buffer;
  readonly createdAt: string;
}

/** `<dataDir>/keys/hmac/<project>`. */
export function projectKeyDirectory(dataDir: string, project: string): string {
  return join(keysDirectory(dataDir), HMAC_DIRECTORY, project);
}

function corrupt(project: string, what: string): CanonryError {
  return new CanonryError('KEYRING_CORRUPT', `HMAC keys of ${project}: ${what}`);
}

/** The key numbers present for `project`, ascending; empty when it has none yet. */
export async function keyNumbers(dataDir: string, project: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir(projectKeyDirectory(dataDir, project));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    const refused = fileFailure(error, 'read', `the HMAC keys of ${project}`);
    if (refused !== error) throw refused;
    throw corrupt(project, 'its folder cannot be listed');
  }
  if (names.length > MAX_ENTRIES) throw corrupt(project, 'its folder holds too many files');
  const numbers: number[] = [];
  for (const name of names) {
    const match = KEY_FILE.exec(name);
    if (match) numbers.push(Number(match[1]));
  }
  return numbers.sort((a, b) => a - b);
}

/**
 * Reads key `n` as hostile input: a regular file (no symlink), small, exactly the fields written,
 * naming this project and this key, 32 bytes of canonical base64url. Undefined when absent.
 * Errors name the file, never its contents.
 */
export async function readKeyFile(
  dataDir: string,
  project: string,
  n: number,
): Promise<KeyFile | undefined> {
  const name = `${fileKeyId(n)}.json`;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(
      join(projectKeyDirectory(dataDir, project), name),
      constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw corrupt(project, `${name} is unreadable`);
  }
  let text: string;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_KEY_FILE_BYTES) {
      throw corrupt(project, `${name} is not a small regular file`);
    }
    text = await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof CanonryError) throw error;
    throw corrupt(project, `${name} is unreadable`);
  } finally {
    await handle.close();
  }
  return parseKeyFile(text, project, n, name);
}

const FIELDS = ['format', 'project', 'key_id', 'key', 'created_at'];

function parseKeyFile(text: string, project: string, n: number, name: string): KeyFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt(project, `${name} is not JSON`);
  }
  const ok =
    isRecord(value) &&
    hasKeys(value, FIELDS) &&
    value.format === 1 &&
    value.project === project &&
    value.key_id === fileKeyId(n) &&
    typeof value.key === 'string' &&
    RAW_KEY.test(value.key) && // 32 bytes as base64url, the same shape as a raw Ed25519 key
    typeof value.created_at === 'string' &&
    ISO_INSTANT.test(value.created_at);
  if (!ok) throw corrupt(project, `${name} is not a key file for ${fileKeyId(n)}`);
  const record = value as { key: string; created_at: string };
  const bytes = Buffer.from(record.key, 'base64url');
  if (bytes.length !== HMAC_KEY_BYTES || bytes.toString('base64url') !== record.key) {
    throw corrupt(project, `${name} does not hold a ${HMAC_KEY_BYTES}-byte key`);
  }
  return { number: n, bytes, createdAt: record.created_at };
}

/**
 * Writes key `n` with fresh random bytes unless a key `n` exists: true when this call made it,
 * false when another writer got there first (read theirs).
 */
export async function createKeyFile(
  dataDir: string,
  project: string,
  n: number,
  now: Date,
): Promise<boolean> {
  const hmacDir = join(keysDirectory(dataDir), HMAC_DIRECTORY);
  const dir = join(hmacDir, project);
  await ensurePrivateDirectory(hmacDir);
  await ensurePrivateDirectory(dir);
  const name = `${fileKeyId(n)}.json`;
  const key = randomBytes(HMAC_KEY_BYTES);
  const contents = `${JSON.stringify({
    format: 1,
    project,
    key_id: fileKeyId(n),
    key: key.toString('base64url'),
    created_at: now.toISOString(),
  })}\n`;
  key.fill(0);
  const temp = await writePrivateTemp(dir, name, contents);
  try {
    await link(temp, join(dir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    const failure = fileFailure(error, 'write', `HMAC key ${name} of ${project}`);
    if (failure !== error) throw failure;
    throw new CanonryError('KEYRING_CORRUPT', `cannot create HMAC key ${name} of ${project}`);
  } finally {
    await rm(temp, { force: true });
  }
  await syncDirectory(dir);
  return true;
}
