import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CanonryError,
  type ContentHash,
  canonicalize,
  LruCache,
  makeDirectory,
  parseContentHash,
} from '../core/index.js';
import { type CompiledProtocol, compileProtocol } from './protocol.js';

/** Who registers a protocol: the authenticated principal and the project its token belongs to. */
export interface RegistrationOwner {
  readonly project: string;
  readonly principal: string;
  readonly role: string;
}

/** Bounds on what a registry keeps. */
export const REGISTRY_LIMITS = Object.freeze({
  /** Largest registered bundle, as canonical JSON (inline bundles are bounded by the body limit). */
  maxBundleBytes: 256 * 1024,
  /** Protocols one project may register (a store enforces it; the memory store has no owners). */
  maxPerProject: 1_000,
});

/** Where registered protocol bundles are kept, by hash. */
export interface ProtocolStore {
  /** The stored bundle (hostile until compiled and its hash checked), or undefined. */
  load(hash: ContentHash): Promise<unknown>;
  /**
   * Stores a validated protocol for its owner (null: the system, e.g. a built-in gate); resolves
   * false when this owner had registered it already.
   */
  save(protocol: CompiledProtocol, owner: RegistrationOwner | null): Promise<boolean>;
}

/** Keeps bundles in memory (tests, embedding). */
export class MemoryProtocolStore implements ProtocolStore {
  readonly #bundles = new Map<ContentHash, string>();

  async load(hash: ContentHash): Promise<unknown> {
    const text = this.#bundles.get(hash);
    return text === undefined ? undefined : JSON.parse(text);
  }

  async save(protocol: CompiledProtocol): Promise<boolean> {
    if (this.#bundles.has(protocol.hash)) return false;
    this.#bundles.set(protocol.hash, canonicalize(protocol.protocol));
    return true;
  }
}

/** Keeps each bundle as `<dir>/<hex>.json` in canonical form, written atomically (one process). */
export class FileProtocolStore implements ProtocolStore {
  constructor(private readonly dir: string) {
    makeDirectory(dir);
  }

  async load(hash: ContentHash): Promise<unknown> {
    let text: string;
    try {
      text = readFileSync(this.pathOf(hash), 'utf8');
    } catch {
      return undefined;
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new CanonryError('STORE_CORRUPT', `stored protocol ${hash} is not JSON`);
    }
  }

  async save(protocol: CompiledProtocol): Promise<boolean> {
    if ((await this.load(protocol.hash)) !== undefined) return false;
    const path = this.pathOf(protocol.hash);
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, canonicalize(protocol.protocol), { mode: 0o600 });
    renameSync(temp, path);
    return true;
  }

  private pathOf(hash: ContentHash): string {
    return join(this.dir, `${hash.slice('sha256:'.length)}.json`);
  }
}

/**
 * Registered agentic protocols, referable by content hash (TCP/AP §4.2). Registration validates the
 * bundle and bounds its size; lookups compile once and are then served from memory (an LRU cache).
 * The store behind it may be shared by several servers (the app journals registrations in the
 * database), so a protocol registered on one server is known to all.
 */
export class ProtocolRegistry {
  readonly #compiled: LruCache<ContentHash, CompiledProtocol>;

  constructor(
    private readonly store: ProtocolStore = new MemoryProtocolStore(),
    cacheSize = 1_000,
  ) {
    this.#compiled = new LruCache(cacheSize);
  }

  /**
   * Validates and stores a bundle for `owner`; resolves to it compiled. Registering the same bundle
   * twice is a no-op (`created: false`). A bundle over {@link REGISTRY_LIMITS.maxBundleBytes} is
   * INVALID_PROTOCOL; the store may refuse with QUOTA_EXCEEDED.
   */
  async register(
    bundle: unknown,
    owner: RegistrationOwner | null = null,
  ): Promise<{ protocol: CompiledProtocol; created: boolean }> {
    const protocol = compileProtocol(bundle);
    const size = Buffer.byteLength(canonicalize(protocol.protocol));
    if (size > REGISTRY_LIMITS.maxBundleBytes) {
      throw new CanonryError(
        'INVALID_PROTOCOL',
        `the bundle is ${size} bytes; a registered protocol is at most ${REGISTRY_LIMITS.maxBundleBytes}`,
        { issues: [{ path: '', message: 'the bundle is too large to register' }] },
      );
    }
    const created = await this.store.save(protocol, owner);
    this.#compiled.set(protocol.hash, protocol);
    return { protocol, created };
  }

  /** The protocol registered under `hash`; UNKNOWN_PROTOCOL if none, INVALID_HASH if malformed. */
  async get(hash: unknown): Promise<CompiledProtocol> {
    const key = parseContentHash(hash, 'agentic_protocol');
    const cached = this.#compiled.get(key);
    if (cached) return cached;
    const bundle = await this.store.load(key);
    if (bundle === undefined) throw new CanonryError('UNKNOWN_PROTOCOL', undefined, { hash: key });
    const protocol = compileProtocol(bundle);
    if (protocol.hash !== key) {
      throw new CanonryError('STORE_CORRUPT', `stored protocol ${key} does not match its hash`);
    }
    this.#compiled.set(key, protocol);
    return protocol;
  }

  /**
   * The bundle registered under `hash`, as stored and not compiled (UNKNOWN_PROTOCOL if none,
   * INVALID_HASH if malformed): for a caller that compiles on a thread of its own and must check
   * that the bundle hashes to `hash` (STORE_CORRUPT otherwise), as `get` does.
   */
  async source(hash: unknown): Promise<unknown> {
    const key = parseContentHash(hash, 'agentic_protocol');
    const cached = this.#compiled.get(key);
    if (cached) return cached.protocol;
    const bundle = await this.store.load(key);
    if (bundle === undefined) throw new CanonryError('UNKNOWN_PROTOCOL', undefined, { hash: key });
    return bundle;
  }

  /**
   * A protocol already in memory (registered or looked up by this process), synchronously, for code
   * that cannot wait (a switchboard's label check); UNKNOWN_PROTOCOL otherwise.
   */
  cached(hash: unknown): CompiledProtocol {
    const key = parseContentHash(hash, 'agentic_protocol');
    const cached = this.#compiled.get(key);
    if (!cached) throw new CanonryError('UNKNOWN_PROTOCOL', undefined, { hash: key });
    return cached;
  }

  /** Whether `hash` names a protocol held compiled here (no store read; never throws). */
  holds(hash: unknown): boolean {
    return typeof hash === 'string' && this.#compiled.get(hash as ContentHash) !== undefined;
  }

  /** An inline bundle or a `sha256:` reference to a registered one. */
  resolveRef(ref: unknown): Promise<CompiledProtocol> {
    return typeof ref === 'string' ? this.get(ref) : Promise.resolve(compileProtocol(ref));
  }
}
