/**
 * A map read through a layer of changes over a base that is never written again: what one window
 * derives from the last window's index costs the keys it changes, not a copy of every key. Values
 * are never `undefined` (a layer marks a deleted key with it).
 *
 * A map is written only while it is being built (`next()` hands out a new one, owned by its
 * caller); once the index that holds it is made, it is read only. Each `next()` starts from a copy
 * of the current layer's changes; `compact()`, called when a map is done, folds its layer into a
 * new base once it is large beside it, so the layer stays small, a read is at most two look-ups,
 * and the window that changed much pays for the fold.
 */
export class LayeredMap<K, V> {
  #base: ReadonlyMap<K, V>;
  #top: Map<K, V | undefined>;

  constructor(base: ReadonlyMap<K, V> = new Map(), top: Map<K, V | undefined> = new Map()) {
    this.#base = base;
    this.#top = top;
  }

  get(key: K): V | undefined {
    if (this.#top.size > 0) {
      const v = this.#top.get(key);
      if (v !== undefined || this.#top.has(key)) return v;
    }
    return this.#base.get(key);
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    this.#top.set(key, value);
  }

  delete(key: K): void {
    if (this.#base.has(key)) this.#top.set(key, undefined);
    else this.#top.delete(key);
  }

  /** A new map with the same content, to write: the same base, this layer copied. */
  next(): LayeredMap<K, V> {
    return new LayeredMap(this.#base, new Map(this.#top));
  }

  /** Folds the layer into a new base when it holds more than a quarter of the base's keys. */
  compact(): this {
    if (this.#top.size * 4 <= this.#base.size) return this;
    const base = new Map(this.#base);
    for (const [k, v] of this.#top) {
      if (v === undefined) base.delete(k);
      else base.set(k, v);
    }
    this.#base = base;
    this.#top = new Map();
    return this;
  }

  *keys(): IterableIterator<K> {
    for (const k of this.#base.keys()) if (!this.#top.has(k)) yield k;
    for (const [k, v] of this.#top) if (v !== undefined) yield k;
  }

  *values(): IterableIterator<V> {
    for (const [k, v] of this.#base) if (!this.#top.has(k)) yield v;
    for (const v of this.#top.values()) if (v !== undefined) yield v;
  }
}
