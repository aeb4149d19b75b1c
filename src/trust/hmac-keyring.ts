import { inspect } from 'node:util';
import { CanonryError } from '../core/index.js';
import {
  checkProject,
  type HeldKey,
  HMAC_KEY_VARIABLE,
  hmacHex,
  hmacMatches,
  isKeyId,
  parseEnvironmentKey,
} from './hmac-key-material.js';
import {
  EnvironmentKeys,
  FileKeys,
  type HmacKeyInfo,
  type HmacKeySourceKind,
  type KeySource,
  MemoryKeys,
} from './hmac-key-sources.js';

/** A project's current key: its id and a way to sign with it. The key itself is not reachable. */
export interface HmacKey {
  readonly keyId: string;
  /** HMAC-SHA256 of `bytes`, 64 lowercase hex digits. */
  sign(bytes: Uint8Array): string;
}

/** Why a check failed: no such key for the project, a wrong MAC, or not a MAC at all. */
export type HmacFailure = 'unknown-key' | 'mismatch' | 'malformed';

/** The result of checking a MAC. */
export interface HmacVerdict {
  readonly ok: boolean;
  readonly reason?: HmacFailure;
}

/** Options for {@link HmacKeyring.open}. */
export interface HmacKeyringOptions {
  /** Where `CANONRY_HMAC_KEY` is read from; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The clock for `created_at` of generated keys. */
  readonly now?: () => Date;
}

function requireBytes(bytes: unknown): Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new CanonryError('INVALID_ARGUMENT', 'the bytes to MAC must be a Uint8Array');
  }
  return bytes;
}

/** The face handed out for a held key: a closure, so neither JSON nor inspect reaches the key. */
function faceOf(key: HeldKey): HmacKey {
  const keyId = key.keyId;
  return Object.freeze({
    keyId,
    sign: (bytes: Uint8Array) => hmacHex(key, requireBytes(bytes)),
    toJSON: () => ({ keyId }),
    [inspect.custom]: () => `HmacKey { keyId: '${keyId}' }`,
  });
}

/**
 * Per-project HMAC keys (for chaining CSOs). Each project's key is created on first use and
 * rotated on demand; retired keys stay so what they sealed still verifies. The keys stay inside
 * the keyring: callers get key ids, MACs and verdicts, never bytes, and JSON, `util.inspect` and
 * errors show only ids.
 */
export class HmacKeyring {
  readonly #keys: KeySource;

  private constructor(keys: KeySource) {
    this.#keys = keys;
  }

  /**
   * The keyring of a data directory: `<dataDir>/keys/hmac/`, or, when `CANONRY_HMAC_KEY` is set,
   * that one key for every project (keys the directory already holds still verify). Nothing is
   * read or written until a key is used. A malformed variable is INVALID_ARGUMENT naming it.
   */
  static open(dataDir: string, options: HmacKeyringOptions = {}): HmacKeyring {
    const env = options.env ?? process.env;
    const now = options.now ?? (() => new Date());
    const files = new FileKeys(dataDir, now);
    const value = env[HMAC_KEY_VARIABLE];
    if (value === undefined || value === '') return new HmacKeyring(files);
    const master = parseEnvironmentKey(value);
    const keys = new EnvironmentKeys(master, files);
    master.fill(0);
    return new HmacKeyring(keys);
  }

  /** A keyring in memory (tests, library use without a data directory). */
  static inMemory(options: Pick<HmacKeyringOptions, 'now'> = {}): HmacKeyring {
    return new HmacKeyring(new MemoryKeys(options.now ?? (() => new Date())));
  }

  /**
   * One key for every project from `material` (hex or base64, at least 32 bytes), as
   * `CANONRY_HMAC_KEY` gives it, held in memory only.
   */
  static fromKey(material: string): HmacKeyring {
    const master = parseEnvironmentKey(material);
    const keys = new EnvironmentKeys(master, undefined);
    master.fill(0);
    return new HmacKeyring(keys);
  }

  /** Where the keys come from. */
  get source(): HmacKeySourceKind {
    return this.#keys.kind;
  }

  /** The project's current key, created on first use (INVALID_PROJECT for a bad name). */
  async current(project: string): Promise<HmacKey> {
    return faceOf(await this.#keys.current(checkProject(project)));
  }

  /** Whether `hex` is the MAC of `bytes` under the project's key `keyId` (constant-time). */
  async verify(project: string, keyId: string, bytes: Uint8Array, hex: string): Promise<boolean> {
    return (await this.check(project, keyId, bytes, hex)).ok;
  }

  /** Like `verify`, with the reason a MAC fails. Never creates a key. */
  async check(
    project: string,
    keyId: unknown,
    bytes: Uint8Array,
    hex: unknown,
  ): Promise<HmacVerdict> {
    checkProject(project);
    requireBytes(bytes);
    if (!isKeyId(keyId) || typeof hex !== 'string' || !/^[0-9a-f]{64}$/.test(hex)) {
      return { ok: false, reason: 'malformed' };
    }
    const key = await this.#keys.find(project, keyId);
    if (key === undefined) return { ok: false, reason: 'unknown-key' };
    return hmacMatches(key, bytes, hex) ? { ok: true } : { ok: false, reason: 'mismatch' };
  }

  /**
   * A new current key for the project; the previous ones are retired, kept for verification.
   * INVALID_ARGUMENT when the key comes from `CANONRY_HMAC_KEY`.
   */
  async rotate(project: string): Promise<HmacKeyInfo> {
    return this.#keys.rotate(checkProject(project));
  }

  /** The project's keys, oldest first, the current one last (ids and dates only). */
  async keys(project: string): Promise<HmacKeyInfo[]> {
    return this.#keys.list(checkProject(project));
  }

  toJSON(): { source: HmacKeySourceKind } {
    return { source: this.source };
  }

  [inspect.custom](): string {
    return `HmacKeyring { source: '${this.source}' }`;
  }
}
