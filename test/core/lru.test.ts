import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/core/index.js';

/** The reference: keys in use order, least recent first, by array moves. */
class Model {
  readonly order: string[] = [];
  readonly values = new Map<string, number>();
  constructor(readonly capacity: number) {}
  get(key: string): number | undefined {
    const at = this.order.indexOf(key);
    if (at < 0) return undefined;
    this.order.splice(at, 1);
    this.order.push(key);
    return this.values.get(key);
  }
  set(key: string, value: number): void {
    const at = this.order.indexOf(key);
    if (at >= 0) this.order.splice(at, 1);
    this.order.push(key);
    this.values.set(key, value);
    if (this.order.length > this.capacity) this.values.delete(this.order.shift() as string);
  }
}

describe('LruCache', () => {
  it('evicts exactly what a least-recently-used model evicts, repeated hits on one key included', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const op = fc.oneof(
      fc.record({ get: key }),
      fc.record({ get: key }),
      fc.record({ set: key, value: fc.integer() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), (cap, ops) => {
        const cache = new LruCache<string, number>(cap);
        const model = new Model(cap);
        for (const o of ops) {
          if ('get' in o) expect(cache.get(o.get)).toBe(model.get(o.get));
          else {
            cache.set(o.set, o.value);
            model.set(o.set, o.value);
          }
          expect(cache.size).toBe(model.order.length);
        }
        for (const k of ['a', 'b', 'c', 'd', 'e']) expect(cache.get(k)).toBe(model.get(k));
      }),
      { numRuns: 2_000 },
    );
  });
});
