import { compareCodeUnits } from '../core/index.js';
import type { CanonLookup } from './classification.js';
import { foldWord, titleTouched, titleWords } from './classify/text.js';
import { holderOf, objectAudience } from './planes.js';
import type { CanonObject } from './types.js';

const byObjectId = (a: CanonObject, b: CanonObject) => compareCodeUnits(a.object_id, b.object_id);

/** Where an object sits: the project's shared plane (null) or one principal's personal plane. */
type Plane = string | null;

interface Held {
  readonly object: CanonObject;
  readonly plane: Plane;
  /** Its title words, folded: its keys in the postings. */
  readonly words: readonly string[];
}

/** Where `id` goes in the sorted `ids` (its index if there). */
function slot(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodeUnits(ids[mid]!, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Two sorted lists of ids, merged. */
function merge(a: readonly string[], b: readonly string[]): string[] {
  if (a.length === 0) return [...b];
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && compareCodeUnits(a[i]!, b[j]!) < 0)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/**
 * Current objects by id, by plane (each plane's ids kept sorted) and by folded title word: what a
 * {@link CanonLookup} answers from, for any reader, without visiting objects the answer does not
 * hold. Changed one object at a time ({@link put}, {@link drop}).
 */
export class CurrentObjects {
  readonly #held = new Map<string, Held>();
  readonly #planes = new Map<Plane, string[]>();
  readonly #postings = new Map<string, Set<string>>();

  /** Holds `object` (replacing what was held under its id). */
  put(object: CanonObject): void {
    this.drop(object.object_id);
    const plane = holderOf(objectAudience(object));
    const words = [...new Set(titleWords(object.title).map(foldWord))];
    this.#held.set(object.object_id, { object, plane, words });
    const ids = this.#planes.get(plane) ?? [];
    this.#planes.set(plane, ids);
    ids.splice(slot(ids, object.object_id), 0, object.object_id);
    for (const word of words) {
      const posting = this.#postings.get(word) ?? new Set<string>();
      this.#postings.set(word, posting);
      posting.add(object.object_id);
    }
  }

  /** Forgets the object held under `id`, if any. */
  drop(id: string): void {
    const held = this.#held.get(id);
    if (!held) return;
    this.#held.delete(id);
    const ids = this.#planes.get(held.plane)!;
    ids.splice(slot(ids, id), 1);
    if (ids.length === 0) this.#planes.delete(held.plane);
    for (const word of held.words) {
      const posting = this.#postings.get(word)!;
      posting.delete(id);
      if (posting.size === 0) this.#postings.delete(word);
    }
  }

  /**
   * What `viewer` may read of it: the shared plane and the viewer's own (§14); every plane for the
   * operator (`null`), or for a list already cut to what its reader may read.
   */
  view(viewer: string | null): CanonLookup {
    const planes =
      viewer === null
        ? [...this.#planes.values()]
        : [this.#planes.get(null) ?? [], viewer === '' ? [] : (this.#planes.get(viewer) ?? [])];
    const visible = (held: Held | undefined): held is Held =>
      held !== undefined &&
      (viewer === null || held.plane === null || (held.plane !== '' && held.plane === viewer));
    const objects = (ids: Iterable<string>) => {
      const out: CanonObject[] = [];
      for (const id of ids) {
        const held = this.#held.get(id);
        if (visible(held)) out.push(held.object);
      }
      return out.sort(byObjectId);
    };
    return {
      size: planes.reduce((n, ids) => n + ids.length, 0),
      get: (id) => {
        const held = this.#held.get(id);
        return visible(held) ? held.object : undefined;
      },
      titled: (words) => {
        const ids = new Set<string>();
        for (const word of words) for (const id of this.#postings.get(word) ?? []) ids.add(id);
        return objects(ids);
      },
      all: () =>
        planes
          .reduce<string[]>((merged, ids) => merge(merged, ids), [])
          .map((id) => this.#held.get(id)!.object),
    };
  }
}

/**
 * A lookup over a list of objects a caller already cut to what its reader may read: searched title
 * by title, as a list handed over whole is read anyway (intake hands an index instead).
 */
export function lookupOf(canon: readonly CanonObject[]): CanonLookup {
  let byId: Map<string, CanonObject> | undefined;
  return {
    size: canon.length,
    get: (id) => {
      byId ??= new Map(canon.map((o) => [o.object_id, o]));
      return byId.get(id);
    },
    titled: (words) => canon.filter((o) => titleTouched(o.title, words)).sort(byObjectId),
    all: () => [...canon].sort(byObjectId),
  };
}
