/**
 * Which item versions make a window's state, worked out from the changes of the windows since the
 * state's last full put (their `relay_windows` records: a window's record is its CSO's change, and
 * the projection keeps no other copy of its items):
 *
 * - an id's versions form runs: a version continues its id's run unless the id was removed after
 *   the run's last version and at or before this one (a removal at window w ends the versions put
 *   before w; one put at w itself is a new run);
 * - a run keeps the place (position) of its first version: an item replaced keeps its place, one
 *   removed and put again goes where it was put;
 * - an id is in window n's state when its last run's last version was not removed after it, up to n.
 *
 * One pass over every version since the last full put, so reading window n's state costs what its
 * windows changed, not n folds of the whole state.
 */

import { CanonryError } from '../core/index.js';
import type { CsoChange } from './cso-change.js';
import { edgeKey } from './graph.js';

/** The lists of a CSO as the versions name them. */
export type ItemList = 'fact' | 'decision' | 'edge';

/** One version of an item: the window that put it, its place in that window, and the item. */
export interface ItemVersion<R> {
  readonly window_from: number;
  readonly list: ItemList;
  readonly item_id: string;
  readonly position: number;
  readonly record: R;
}

/** An item a window removed. */
export interface ItemRemoval {
  readonly window_to: number;
  readonly list: ItemList;
  readonly item_id: string;
}

/** An item in a window's state: its list, its place and its record. */
export interface LiveItem<R> {
  readonly list: ItemList;
  readonly position: number;
  readonly record: R;
}

/** A window's change with its number: what {@link versionsOf} reads. */
export interface NumberedChange {
  readonly window_number: number;
  readonly state: CsoChange;
}

/** Where a window's new items go: after every earlier window's, in the order the change lists. */
const positionOf = (windowNumber: number, i: number) => windowNumber * 2 ** 20 + i;

const keyOf = (list: string, id: string) => `${list}\u0000${id}`;

/** The item versions and removals of `changes` (in window order), each item with its place. */
export function versionsOf(changes: readonly NumberedChange[]): {
  versions: ItemVersion<object>[];
  removals: ItemRemoval[];
} {
  const versions: ItemVersion<object>[] = [];
  const removals: ItemRemoval[] = [];
  for (const { window_number: n, state } of changes) {
    state.established_facts.put.forEach((f, i) => {
      versions.push({
        window_from: n,
        list: 'fact',
        item_id: f.fact_id,
        position: positionOf(n, i),
        record: f,
      });
    });
    state.decisions.put.forEach((d, i) => {
      versions.push({
        window_from: n,
        list: 'decision',
        item_id: d.decision_id,
        position: positionOf(n, i),
        record: d,
      });
    });
    for (const e of state.dependency_graph.added) {
      versions.push({ window_from: n, list: 'edge', item_id: edgeKey(e), position: 0, record: e });
    }
    for (const id of state.established_facts.removed) {
      removals.push({ window_to: n, list: 'fact', item_id: id });
    }
    for (const id of state.decisions.removed) {
      removals.push({ window_to: n, list: 'decision', item_id: id });
    }
    for (const e of state.dependency_graph.removed) {
      removals.push({ window_to: n, list: 'edge', item_id: edgeKey(e) });
    }
  }
  return { versions, removals };
}

/**
 * The items of window `n`'s state, in order of place: from `versions`, every version put from the
 * state's last full put up to `n`, in window order, and `removals`, every removal after that up to
 * `n` (any order).
 */
export function liveItems<R>(
  versions: readonly ItemVersion<R>[],
  removals: readonly ItemRemoval[],
  n: number,
): LiveItem<R>[] {
  const removedAt = new Map<string, number[]>();
  for (const r of removals) {
    const key = keyOf(r.list, r.item_id);
    const at = removedAt.get(key);
    if (at) at.push(r.window_to);
    else removedAt.set(key, [r.window_to]);
  }
  /** Whether `key` was removed after window `after`, at or before `upTo`. */
  const removedBetween = (key: string, after: number, upTo: number) =>
    removedAt.get(key)?.some((w) => w > after && w <= upTo) ?? false;

  const runs = new Map<string, { list: ItemList; position: number; record: R; last: number }>();
  let previous = Number.NEGATIVE_INFINITY;
  for (const version of versions) {
    const at = version.window_from;
    if (at < previous)
      throw new CanonryError('INTERNAL', 'item versions must come in window order');
    previous = at;
    const key = keyOf(version.list, version.item_id);
    const run = runs.get(key);
    if (run && !removedBetween(key, run.last, at)) {
      run.record = version.record;
      run.last = at;
    } else {
      runs.set(key, {
        list: version.list,
        position: version.position,
        record: version.record,
        last: at,
      });
    }
  }
  const live: LiveItem<R>[] = [];
  for (const [key, run] of runs) {
    if (!removedBetween(key, run.last, n)) {
      live.push({ list: run.list, position: run.position, record: run.record });
    }
  }
  return live.sort((a, b) => a.position - b.position);
}
