/** A bounded map that evicts the least recently used entry once it holds `capacity` entries. */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  /** The most recently used key: a hit on it (one hot protocol, one session) moves nothing. */
  #newest: K | undefined;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be >= 1');
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined && key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
    if (this.#entries.size > this.capacity) {
      this.#entries.delete(this.#entries.keys().next().value as K);
    }
  }
}
