import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CanonryError,
  type ContentHash,
  canonicalize,
  LruCache,
  parseContentHash,
} from '../core/index.js';
import { type CompiledProtocol, compileProtocol } from './protocol.js';

/** Where registered protocol bundles are kept, by hash. */
export interface ProtocolStore {
  load(hash: ContentHash): unknown;
  save(hash: ContentHash, bundle: unknown): void;
}

/** Keeps bundles in memory. */
export class MemoryProtocolStore implements ProtocolStore {
  readonly #bundles = new Map<ContentHash, string>();

  load(hash: ContentHash): unknown {
    const text = this.#bundles.get(hash);
    return text === undefined ? undefined : JSON.parse(text);
  }

  save(hash: ContentHash, bundle: unknown): void {
    this.#bundles.set(hash, canonicalize(bundle));
  }
}

/** Keeps each bundle as `<dir>/<hex>.json` in canonical form, written atomically. */
export class FileProtocolStore implements ProtocolStore {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  load(hash: ContentHash): unknown {
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

  save(hash: ContentHash, bundle: unknown): void {
    const path = this.pathOf(hash);
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, canonicalize(bundle), { mode: 0o600 });
    renameSync(temp, path);
  }

  private pathOf(hash: ContentHash): string {
    return join(this.dir, `${hash.slice('sha256:'.length)}.json`);
  }
}

/**
 * Registered agentic protocols, referable by content hash (TCP/AP §4.2). Registration validates the
 * bundle; lookups compile once and are then served from the kernel's compile cache.
 */
export class ProtocolRegistry {
  readonly #compiled: LruCache<ContentHash, CompiledProtocol>;

  constructor(
    private readonly store: ProtocolStore = new MemoryProtocolStore(),
    cacheSize = 1_000,
  ) {
    this.#compiled = new LruCache(cacheSize);
  }

  /** Validates and stores a bundle; returns it compiled. Registering the same bundle twice is a no-op. */
  register(bundle: unknown): { protocol: CompiledProtocol; created: boolean } {
    const protocol = compileProtocol(bundle);
    const created = this.store.load(protocol.hash) === undefined;
    if (created) this.store.save(protocol.hash, protocol.protocol);
    this.#compiled.set(protocol.hash, protocol);
    return { protocol, created };
  }

  /** The protocol registered under `hash`; UNKNOWN_PROTOCOL if none, INVALID_HASH if malformed. */
  get(hash: unknown): CompiledProtocol {
    const key = parseContentHash(hash, 'agentic_protocol');
    const cached = this.#compiled.get(key);
    if (cached) return cached;
    const bundle = this.store.load(key);
    if (bundle === undefined) throw new CanonryError('UNKNOWN_PROTOCOL', undefined, { hash: key });
    const protocol = compileProtocol(bundle);
    if (protocol.hash !== key) {
      throw new CanonryError('STORE_CORRUPT', `stored protocol ${key} does not match its hash`);
    }
    this.#compiled.set(key, protocol);
    return protocol;
  }

  /** An inline bundle or a `sha256:` reference to a registered one. */
  resolveRef(ref: unknown): CompiledProtocol {
    return typeof ref === 'string' ? this.get(ref) : compileProtocol(ref);
  }
}
