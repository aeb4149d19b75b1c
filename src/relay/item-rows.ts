/**
 * Which item versions of the relay's projection make a window's state. A window inserts a row per
 * item version it put and a row per item it removed, and never updates an earlier row
 * (`projection.ts`); what is live is worked out here, from the rows alone:
 *
 * - an id's versions form runs: a version continues its id's run unless the id was removed after
 *   the run's last version and at or before this one (a removal at window w ends the versions put
 *   before w; one put at w itself is a new run);
 * - a run keeps the place (position) of its first version: an item replaced keeps its place, one
 *   removed and put again goes where it was put;
 * - an id is in window n's state when its last run's last version was not removed after it, up to n.
 */

import { CanonryError } from '../core/index.js';

/** A row of `relay_items`, as read. */
export interface ItemVersionRow {
  readonly window_from: number | string;
  readonly list: string;
  readonly item_id: string;
  readonly position: number | string;
  readonly record: string;
}

/** A row of `relay_item_removals`, as read. */
export interface ItemRemovalRow {
  readonly window_to: number | string;
  readonly list: string;
  readonly item_id: string;
}

/** An item in a window's state: its list, its place and its record (canonical JSON). */
export interface LiveItem {
  readonly list: string;
  readonly position: number;
  readonly record: string;
}

const keyOf = (list: string, id: string) => `${list}\u0000${id}`;

/**
 * The items of window `n`'s state, in order of place: from `rows`, every version put from the
 * state's last full put up to `n`, in window order, and `removals`, every removal after that up to
 * `n` (any order).
 */
export function liveItems(
  rows: readonly ItemVersionRow[],
  removals: readonly ItemRemovalRow[],
  n: number,
): LiveItem[] {
  const removedAt = new Map<string, number[]>();
  for (const r of removals) {
    const key = keyOf(r.list, r.item_id);
    const at = removedAt.get(key);
    if (at) at.push(Number(r.window_to));
    else removedAt.set(key, [Number(r.window_to)]);
  }
  /** Whether `key` was removed after window `after`, at or before `upTo`. */
  const removedBetween = (key: string, after: number, upTo: number) =>
    removedAt.get(key)?.some((w) => w > after && w <= upTo) ?? false;

  const runs = new Map<string, { list: string; position: number; record: string; last: number }>();
  let previous = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    const at = Number(row.window_from);
    if (at < previous) throw new CanonryError('INTERNAL', 'item rows must come in window order');
    previous = at;
    const key = keyOf(row.list, row.item_id);
    const run = runs.get(key);
    if (run && !removedBetween(key, run.last, at)) {
      run.record = row.record;
      run.last = at;
    } else {
      runs.set(key, {
        list: row.list,
        position: Number(row.position),
        record: row.record,
        last: at,
      });
    }
  }
  const live: LiveItem[] = [];
  for (const [key, run] of runs) {
    if (!removedBetween(key, run.last, n)) {
      live.push({ list: run.list, position: run.position, record: run.record });
    }
  }
  return live.sort((a, b) => a.position - b.position);
}
