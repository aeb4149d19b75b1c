import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listDigest } from '../../src/relay/cso-digest.js';
import { listDigestFromScratch } from './cso-fixtures.js';

/** One window's edit of a list: items replaced, removed, inserted or moved, by position. */
type Edit =
  | { readonly op: 'replace' | 'remove' | 'move'; readonly at: number; readonly to: number }
  | { readonly op: 'insert'; readonly at: number; readonly to: number };

const edit: fc.Arbitrary<Edit> = fc.record({
  op: fc.constantFrom('replace', 'remove', 'insert', 'move'),
  at: fc.nat(),
  to: fc.nat(),
});

let made = 0;
/** A new item object (a fact-like record; its digest decides where chunks end). */
const item = () => ({ fact_id: `f${++made}`, statement: `statement ${made}`, confidence: 1 });

/** The list after the edits; carried items stay the same objects, as a window carries them. */
function edited(list: readonly object[], edits: readonly Edit[]): object[] {
  const next = [...list];
  for (const e of edits) {
    if (next.length === 0 || e.op === 'insert') {
      next.splice(next.length === 0 ? 0 : e.at % (next.length + 1), 0, item());
      continue;
    }
    const at = e.at % next.length;
    if (e.op === 'replace') next[at] = { ...next[at]!, confidence: 0.5 };
    else if (e.op === 'remove') next.splice(at, 1);
    else next.splice(e.to % next.length, 0, ...next.splice(at, 1));
  }
  return next;
}

describe('listDigest', () => {
  it('equals the digest made from scratch, window after window of edits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.array(fc.array(edit, { maxLength: 12 }), { minLength: 1, maxLength: 6 }),
        (size, windows) => {
          let list: object[] = Array.from({ length: size }, item);
          expect(listDigest(list).equals(listDigestFromScratch(list))).toBe(true);
          for (const edits of windows) {
            list = edited(list, edits);
            expect(listDigest(list).equals(listDigestFromScratch(list))).toBe(true);
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('tells apart two lists that share chunks: a carried item moved, one left out', () => {
    const list = Array.from({ length: 300 }, item);
    const before = listDigest(list);
    const moved = [...list.slice(1, 150), list[0]!, ...list.slice(150)];
    const shorter = list.filter((_, i) => i !== 77);
    for (const other of [moved, shorter]) {
      const d = listDigest(other);
      expect(d.equals(before)).toBe(false);
      expect(d.equals(listDigestFromScratch(other))).toBe(true);
    }
    expect(listDigest(list).equals(before)).toBe(true);
  });
});
