// @ts-check
/** A small seeded PRNG (mulberry32) with the helpers the generator needs. */
export class Rng {
  /** @param {number} seed */
  constructor(seed) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. @param {number} lo @param {number} hi */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** @param {number} p */
  chance(p) {
    return this.next() < p;
  }

  /** @template T @param {readonly T[]} items @returns {T} */
  pick(items) {
    if (items.length === 0) throw new Error('pick from an empty list');
    return /** @type {T} */ (items[Math.floor(this.next() * items.length)]);
  }

  /** A shuffled copy. @template T @param {readonly T[]} items @returns {T[]} */
  shuffle(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [/** @type {T} */ (out[j]), /** @type {T} */ (out[i])];
    }
    return out;
  }

  /**
   * Picks a key by weight; keys with weight 0 are never picked.
   * @template {string} K @param {Record<K, number>} weights @returns {K | null}
   */
  weighted(weights) {
    const entries = /** @type {[K, number][]} */ (Object.entries(weights)).filter(([, w]) => w > 0);
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    if (total === 0) return null;
    let x = this.next() * total;
    for (const [key, w] of entries) {
      x -= w;
      if (x < 0) return key;
    }
    return /** @type {K} */ (entries.at(-1)?.[0]);
  }
}

/** A 32-bit hash of a string (FNV-1a), to derive per-scenario seeds. @param {string} text */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
