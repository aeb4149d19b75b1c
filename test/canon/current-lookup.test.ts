// The current objects intake classifies against, as the process keeps them (`current-lookup.ts`):
// after any run of puts (new objects, renames, moves between planes) and drops, every reader's view
// answers as the plain list does — the objects the reader may read (§14: the shared plane and its
// own; everything for the operator), in id order, by id, and by title word — and `lookupOf`, over a
// list, answers the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CurrentObjects, lookupOf } from '../../src/canon/current-lookup.js';
import type { CanonObject } from '../../src/canon/index.js';

const PLANES = [null, 'ann', 'bob', ''] as const;
const WORDS = ['release', 'budget', 'Straße', 'STRASSE', 'cadence', 'ÉCOLE', 'école', 'a1b2'];
const VIEWERS = [null, 'ann', 'bob', 'cy', ''] as const;

/** An object as far as a lookup reads it: id, title and plane (visibility and proposer). */
function objectOf(id: string, title: string, plane: (typeof PLANES)[number]): CanonObject {
  return {
    object_id: id,
    title,
    visibility: plane === null ? 'project' : 'personal',
    authority_basis: plane === null || plane === '' ? {} : { proposer: { id: plane } },
  } as unknown as CanonObject;
}

/** The scenario's own reading: who may read what, and which words a title holds. */
const mayRead = (viewer: string | null, plane: string | null) =>
  viewer === null || plane === null || (plane !== '' && plane === viewer);
const fold = (w: string) => w.toUpperCase().toLowerCase();
const titleHas = (title: string, word: string) =>
  (title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => w.length >= 4)
    .some((w) => fold(w) === fold(word));

const op = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    id: fc.constantFrom('a', 'b', 'B', 'c.1', 'c.10', 'c.2', 'é', 'z'),
    title: fc
      .array(fc.constantFrom(...WORDS, 'the', 'of'), { maxLength: 4 })
      .map((w) => w.join(' ')),
    plane: fc.constantFrom(...PLANES),
  }),
  fc.record({ kind: fc.constant('drop' as const), id: fc.constantFrom('a', 'b', 'c.1', 'z') }),
);

describe('the current objects kept for intake', () => {
  it('answers every reader as the plain list does, after any puts and drops', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const kept = new CurrentObjects();
        const model = new Map<string, { object: CanonObject; plane: string | null }>();
        for (const o of ops) {
          if (o.kind === 'put') {
            kept.put(objectOf(o.id, o.title, o.plane));
            model.set(o.id, { object: objectOf(o.id, o.title, o.plane), plane: o.plane });
          } else {
            kept.drop(o.id);
            model.delete(o.id);
          }
        }
        const byId = (a: CanonObject, b: CanonObject) =>
          a.object_id < b.object_id ? -1 : a.object_id > b.object_id ? 1 : 0;
        for (const viewer of VIEWERS) {
          const readable = [...model.values()]
            .filter((h) => mayRead(viewer, h.plane))
            .map((h) => h.object)
            .sort(byId);
          const view = kept.view(viewer);
          const list = lookupOf(readable);
          for (const lookup of [view, list]) {
            expect(lookup.all()).toEqual(readable);
            expect(lookup.size).toBe(readable.length);
            for (const id of ['a', 'b', 'B', 'c.1', 'c.10', 'c.2', 'é', 'z', 'none']) {
              expect(lookup.get(id)).toEqual(readable.find((o) => o.object_id === id));
            }
            for (const word of WORDS) {
              const words = new Set([fold(word)]);
              expect([word, lookup.titled(words)]).toEqual([
                word,
                readable.filter((o) => titleHas(o.title, word)),
              ]);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
