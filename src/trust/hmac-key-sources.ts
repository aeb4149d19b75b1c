/**
 * Where an HMAC keyring's keys come from: files in the data directory, memory, or the environment.
 * Internal to trust: these hold the secrets, and only `HmacKeyring` (which never hands them out)
 * uses them.
 */
import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { CanonryError } from '../core/index.js';
import { createKeyFile, keyNumbers, readKeyFile } from './hmac-key-files.js';
import {
  deriveProjectKey,
  environmentKeyId,
  FILE_KEY_ID,
  fileKeyId,
  type HeldKey,
  HMAC_KEY_BYTES,
  HMAC_KEY_VARIABLE,
  holdKey,
  MAX_KEYS_PER_PROJECT,
} from './hmac-key-material.js';

/** Where a keyring's keys live. */
export type HmacKeySourceKind = 'files' | 'memory' | 'environment';

/** A key as listings show it: never its bytes. */
export interface HmacKeyInfo {
  readonly keyId: string;
  /** The newest key is current (it seals); older ones are retired (they only verify). */
  readonly status: 'current' | 'retired';
  /** When canonry generated it; null for the environment's key. */
  readonly createdAt: string | null;
}

/** What `HmacKeyring` needs of a source; every project name is already checked. */
export interface KeySource {
  readonly kind: HmacKeySourceKind;
  /** The current key, created on first use when the source creates keys. */
  current(project: string): Promise<HeldKey>;
  /** The key with this id, current or retired; undefined when there is none. */
  find(project: string, keyId: string): Promise<HeldKey | undefined>;
  rotate(project: string): Promise<HmacKeyInfo>;
  list(project: string): Promise<HmacKeyInfo[]>;
}

function tooMany(project: string): CanonryError {
  return new CanonryError(
    'QUOTA_EXCEEDED',
    `${project} already has ${MAX_KEYS_PER_PROJECT} HMAC keys; it cannot rotate again`,
  );
}

function statusOf(n: number, top: number): HmacKeyInfo['status'] {
  return n === top ? 'current' : 'retired';
}

/** Keys in memory, numbered like files; gone with the process. */
export class MemoryKeys implements KeySource {
  readonly kind = 'memory' as const;
  readonly #keys = new Map<string, { key: HeldKey; createdAt: string }[]>();
  readonly #now: () => Date;

  constructor(now: () => Date) {
    this.#now = now;
  }

  async current(project: string): Promise<HeldKey> {
    const keys = this.#keys.get(project);
    if (keys !== undefined) return keys.at(-1)!.key;
    await this.rotate(project);
    return this.#keys.get(project)!.at(-1)!.key;
  }

  async find(project: string, keyId: string): Promise<HeldKey | undefined> {
    return this.#keys.get(project)?.find((k) => k.key.keyId === keyId)?.key;
  }

  async rotate(project: string): Promise<HmacKeyInfo> {
    const keys = this.#keys.get(project) ?? [];
    if (keys.length >= MAX_KEYS_PER_PROJECT) throw tooMany(project);
    const bytes = randomBytes(HMAC_KEY_BYTES);
    const key = holdKey(fileKeyId(keys.length + 1), bytes);
    bytes.fill(0);
    const createdAt = this.#now().toISOString();
    this.#keys.set(project, [...keys, { key, createdAt }]);
    return { keyId: key.keyId, status: 'current', createdAt };
  }

  async list(project: string): Promise<HmacKeyInfo[]> {
    const keys = this.#keys.get(project) ?? [];
    return keys.map((k, i) => ({
      keyId: k.key.keyId,
      status: statusOf(i + 1, keys.length),
      createdAt: k.createdAt,
    }));
  }
}

/**
 * Keys in `<dataDir>/keys/hmac/<project>/`. Key files never change once written, so each is read
 * once and cached; the folder is listed on every `current` so a rotation by another process takes
 * effect at this process's next seal, and a key id not yet cached is looked up on disk.
 */
export class FileKeys implements KeySource {
  readonly kind = 'files' as const;
  readonly #dataDir: string;
  readonly #now: () => Date;
  readonly #cache = new Map<string, { key: HeldKey; createdAt: string }>();

  constructor(dataDir: string, now: () => Date) {
    this.#dataDir = dataDir;
    this.#now = now;
  }

  async current(project: string): Promise<HeldKey> {
    // A few rounds at most: the first use creates k1 (or finds that another writer just did).
    for (let round = 0; round < 3; round++) {
      const top = (await keyNumbers(this.#dataDir, project)).at(-1);
      if (top !== undefined) {
        const loaded = await this.#load(project, top);
        if (loaded !== undefined) return loaded.key;
      } else {
        await createKeyFile(this.#dataDir, project, 1, this.#now());
      }
    }
    throw new CanonryError('KEYRING_CORRUPT', `the HMAC keys of ${project} keep changing`);
  }

  async find(project: string, keyId: string): Promise<HeldKey | undefined> {
    const match = FILE_KEY_ID.exec(keyId);
    if (!match) return undefined;
    return (await this.#load(project, Number(match[1])))?.key;
  }

  async rotate(project: string): Promise<HmacKeyInfo> {
    // Each failed round means another writer made that number; bounded by how many can race.
    for (let round = 0; round < 64; round++) {
      const next = ((await keyNumbers(this.#dataDir, project)).at(-1) ?? 0) + 1;
      if (next > MAX_KEYS_PER_PROJECT) throw tooMany(project);
      if (await createKeyFile(this.#dataDir, project, next, this.#now())) {
        const made = await this.#load(project, next);
        return { keyId: fileKeyId(next), status: 'current', createdAt: made!.createdAt };
      }
    }
    throw new CanonryError('CONFLICT', `too many concurrent rotations of ${project}'s HMAC key`);
  }

  async list(project: string): Promise<HmacKeyInfo[]> {
    const numbers = await keyNumbers(this.#dataDir, project);
    const top = numbers.at(-1) ?? 0;
    const infos: HmacKeyInfo[] = [];
    for (const n of numbers) {
      const loaded = await this.#load(project, n);
      if (loaded === undefined) continue; // removed since listed: nothing to show
      infos.push({ keyId: fileKeyId(n), status: statusOf(n, top), createdAt: loaded.createdAt });
    }
    return infos;
  }

  async #load(project: string, n: number) {
    const cacheKey = `${project}/${n}`;
    const cached = this.#cache.get(cacheKey);
    if (cached !== undefined) return cached;
    const file = await readKeyFile(this.#dataDir, project, n);
    if (file === undefined) return undefined;
    const loaded = { key: holdKey(fileKeyId(n), file.bytes), createdAt: file.createdAt };
    file.bytes.fill(0);
    this.#cache.set(cacheKey, loaded);
    return loaded;
  }
}

/**
 * One externally managed master key (`CANONRY_HMAC_KEY`) for every project: each project seals
 * with its own key derived from it, id `env-<8 hex>`. Keys canonry generated earlier (`k<n>` in
 * the data directory, when there is one) still verify, read-only: the environment's key is always
 * the current one, and rotating means changing the variable.
 */
export class EnvironmentKeys implements KeySource {
  readonly kind = 'environment' as const;
  readonly #master: KeyObject;
  readonly #keyId: string;
  readonly #derived = new Map<string, HeldKey>();
  readonly #earlier: FileKeys | undefined;

  constructor(master: Buffer, earlier: FileKeys | undefined) {
    this.#master = createSecretKey(Buffer.from(master));
    this.#keyId = environmentKeyId(master);
    this.#earlier = earlier;
  }

  async current(project: string): Promise<HeldKey> {
    let key = this.#derived.get(project);
    if (key === undefined) {
      const bytes = deriveProjectKey(this.#master, project);
      key = holdKey(this.#keyId, bytes);
      bytes.fill(0);
      this.#derived.set(project, key);
    }
    return key;
  }

  async find(project: string, keyId: string): Promise<HeldKey | undefined> {
    if (keyId === this.#keyId) return this.current(project);
    return this.#earlier?.find(project, keyId);
  }

  async rotate(): Promise<HmacKeyInfo> {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `the HMAC key comes from ${HMAC_KEY_VARIABLE}: rotate it by changing that variable`,
      { variable: HMAC_KEY_VARIABLE },
    );
  }

  async list(project: string): Promise<HmacKeyInfo[]> {
    const earlier = (await this.#earlier?.list(project)) ?? [];
    return [
      ...earlier.map((k) => ({ ...k, status: 'retired' as const })),
      { keyId: this.#keyId, status: 'current', createdAt: null },
    ];
  }
}
