/**
 * A map keyed by text and bounded by the characters of its keys together: past `maxChars` the
 * oldest keys go first (first in, first out: a hit moves nothing, so a look-up stays one `get`).
 * A key longer than `maxKeyChars` is never kept. For memos of work done on texts — a statement's
 * reading, a line's token count — whose memory grows with the texts, not with their number.
 */
export class TextCache<V> {
  readonly #entries = new Map<string, V>();
  #chars = 0;

  constructor(
    readonly maxChars: number,
    readonly maxKeyChars: number = maxChars,
  ) {
    if (!Number.isSafeInteger(maxChars) || maxChars < 1)
      throw new RangeError('maxChars must be >= 1');
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The characters of the keys held. */
  get chars(): number {
    return this.#chars;
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** The value kept for `key`, else `make(key)`, kept (within the bounds) for the next time. */
  memo(key: string, make: (key: string) => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = make(key);
      this.set(key, value);
    }
    return value;
  }

  /** Keeps `value` for `key` (unless the key is too long), letting the oldest keys go past the bound. */
  set(key: string, value: V): void {
    if (key.length > this.maxKeyChars) return;
    if (this.#entries.has(key)) {
      this.#entries.set(key, value);
      return;
    }
    this.#chars += key.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#chars <= this.maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= oldest.length;
    }
    this.#entries.set(key, value);
  }

  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }
}
