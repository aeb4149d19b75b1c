import { canonicalize } from '../core/index.js';
import { canonicalBody, type JournalEntry, type Projection } from '../journal/index.js';
import { pieces, type Queryable, rowPlaceholders, type SqlValue } from '../store/index.js';
import type { CsoChange, ItemsChange } from './cso-change.js';
import {
  RELAY_HALT,
  RELAY_SESSION,
  RELAY_WINDOW,
  sessionEntryOf,
  windowEntryOf,
} from './entry-kinds.js';
import type { RelayWindowEntry } from './session-types.js';
import type { DependencyEdge } from './types.js';

/** The lists of a CSO as `relay_items.list` names them. */
export type ItemList = 'fact' | 'decision' | 'edge';

/** An edge's id in `relay_items` (its two ends as canonical JSON: no separator can collide). */
export const edgeId = (e: DependencyEdge): string => canonicalize([e.dependent, e.depends_on]);

/** Where a window's new items go: after every earlier window's, in the order the change lists. */
const positionOf = (windowNumber: number, i: number) => windowNumber * 2 ** 20 + i;

const inList = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `$${from + i}`).join(', ');

/** An item of a list, as `relay_items` keys it. */
interface ListItem {
  readonly list: ItemList;
  readonly id: string;
}

/** A row a window opens: an item's version, at its place in its list. */
interface ItemRow extends ListItem {
  readonly position: number;
  readonly record: string;
}

const itemKey = (list: ItemList, id: string) => `${list}\u0000${id}`;

/**
 * Closes the open rows of `count` items at a window and returns their positions, in one statement
 * for every list: `$1` project, `$2` session, `$3` the window, then each item's list and id.
 */
export const closeStatement = (count: number) =>
  `UPDATE relay_items SET window_to = $3
   WHERE project = $1 AND session_id = $2 AND window_to IS NULL
     AND (list, item_id) IN (VALUES ${rowPlaceholders(count, 2, 4)})
   RETURNING list, item_id, position`;

/** Closes the open rows of `items` at window `n`; returns the positions they had, by list and id. */
async function close(
  tx: Queryable,
  key: readonly SqlValue[],
  n: number,
  items: readonly ListItem[],
): Promise<Map<string, number>> {
  const positions = new Map<string, number>();
  for (const piece of pieces(items)) {
    const rows = await tx.all<{ list: ItemList; item_id: string; position: number | string }>(
      closeStatement(piece.length),
      [...key, n, ...piece.flatMap((item) => [item.list, item.id])],
    );
    for (const row of rows) positions.set(itemKey(row.list, row.item_id), Number(row.position));
  }
  return positions;
}

/** Opens `rows` at window `n`, every list in one statement. */
async function insert(
  tx: Queryable,
  key: readonly SqlValue[],
  n: number,
  rows: readonly ItemRow[],
): Promise<void> {
  for (const piece of pieces(rows)) {
    const values = piece.map((_, i) => `($1, $2, ${inList(4 + i * 4, 4)}, $3, NULL)`).join(', ');
    await tx.run(
      `INSERT INTO relay_items (project, session_id, list, item_id, position, record, window_from, window_to)
       VALUES ${values}`,
      [...key, n, ...piece.flatMap((r) => [r.list, r.id, r.position, r.record])],
    );
  }
}

/** What a list's change closes: what left, and what is replaced (a new version of the same id). */
function closing<T>(list: ItemList, change: ItemsChange<T>, idOf: (item: T) => string): ListItem[] {
  const removed = new Set(change.removed);
  return [...change.removed, ...change.put.map(idOf).filter((id) => !removed.has(id))].map(
    (id) => ({ list, id }),
  );
}

/** The rows a list's change opens: a replaced item keeps its place, a new one goes last. */
function opening<T>(
  list: ItemList,
  n: number,
  change: ItemsChange<T>,
  idOf: (item: T) => string,
  positions: ReadonlyMap<string, number>,
): ItemRow[] {
  const removed = new Set(change.removed);
  return change.put.map((item, i) => {
    const id = idOf(item);
    return {
      list,
      id,
      position:
        (!removed.has(id) ? positions.get(itemKey(list, id)) : undefined) ?? positionOf(n, i),
      record: canonicalize(item),
    };
  });
}

/**
 * The window's CSO change, as rows: what left or was replaced is closed, what is new opened — one
 * statement for the closes and one for the new rows, whatever the lists.
 */
async function applyState(tx: Queryable, project: string, sessionId: string, state: CsoChange) {
  const n = state.window_number;
  if (state.base === 'empty') {
    await tx.run(
      'UPDATE relay_items SET window_to = $3 WHERE project = $1 AND session_id = $2 AND window_to IS NULL',
      [project, sessionId, n],
    );
  }
  const factId = (f: { fact_id: string }) => f.fact_id;
  const decisionId = (d: { decision_id: string }) => d.decision_id;
  const edges = state.dependency_graph;
  const key = [project, sessionId];
  const positions = await close(tx, key, n, [
    ...closing('fact', state.established_facts, factId),
    ...closing('decision', state.decisions, decisionId),
    ...edges.removed.map((e) => ({ list: 'edge' as const, id: edgeId(e) })),
  ]);
  await insert(tx, key, n, [
    ...opening('fact', n, state.established_facts, factId, positions),
    ...opening('decision', n, state.decisions, decisionId, positions),
    ...edges.added.map((e) => ({
      list: 'edge' as const,
      id: edgeId(e),
      position: 0,
      record: canonicalize(e),
    })),
  ]);
}

const WINDOW_BODY_HEAD = '{"window":';

/**
 * The canonical text of an entry's window as the projection stores it: without its raw answers
 * (`ProjectedWindowEntry`). Cut from the entry's canonical body when the body is `{ window }` as
 * journaled (RFC 8785 writes it as `{"window":` + the window's text + `}`, and `answers` sorts
 * first), so a 20–30 KB window is not encoded a second time; else encoded without them.
 */
function projectedText(entry: JournalEntry, window: RelayWindowEntry): string {
  const body = entry.body as Record<string, unknown>;
  if (body.window === window && Object.keys(body).length === 1) {
    const text = canonicalBody(entry).slice(WINDOW_BODY_HEAD.length, -1);
    if (window.answers === undefined) return text;
    const head = `{"answers":${canonicalize(window.answers)}`;
    if (text.startsWith(head)) {
      const rest = text.slice(head.length);
      if (rest.startsWith(',')) return `{${rest.slice(1)}`;
      if (rest === '}') return '{}';
    }
  }
  const { answers: _answers, ...projected } = window;
  return canonicalize(projected);
}

async function apply(tx: Queryable, entry: JournalEntry): Promise<void> {
  const window = windowEntryOf(entry);
  const session = sessionEntryOf(entry);
  if (session) {
    await tx.run(
      `INSERT INTO relay_sessions (project, session_id, status, windows, seq, record)
       VALUES ($1, $2, 'active', 0, $3, $4)`,
      [entry.project, session.session_id, entry.seq, canonicalize(session)],
    );
  } else if (window) {
    await tx.run(
      `INSERT INTO relay_windows (project, session_id, window_number, seq, record, output, quality)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        entry.project,
        window.session_id,
        window.window_number,
        entry.seq,
        projectedText(entry, window),
        canonicalize(window.output),
        canonicalize(window.quality),
      ],
    );
    await applyState(tx, entry.project, window.session_id, window.state);
    await tx.run(
      `UPDATE relay_sessions SET status = $3, windows = $4, seq = $5
       WHERE project = $1 AND session_id = $2`,
      [entry.project, window.session_id, window.status, window.window_number, entry.seq],
    );
  } else if (RELAY_HALT.is(entry)) {
    const { halt } = entry.body;
    await tx.run(
      `UPDATE relay_sessions SET status = 'halted', seq = $3 WHERE project = $1 AND session_id = $2`,
      [entry.project, halt.session_id, entry.seq],
    );
  }
}

/**
 * The relay's projection: sessions, their windows as journaled (without their raw answers), and
 * the CSO items row per version, rebuilt by replaying `relay.*` entries (version 1 windows read as
 * changes from nothing). Version 3: window records no longer hold the raw answers.
 */
export const RELAY_PROJECTION: Projection = {
  name: 'relay',
  kinds: [...RELAY_SESSION.kinds, ...RELAY_WINDOW.kinds, RELAY_HALT.kind],
  tables: ['relay_sessions', 'relay_windows', 'relay_items'],
  version: 3,
  apply,
};
