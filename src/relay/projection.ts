import { canonicalize } from '../core/index.js';
import { canonicalBody, type JournalEntry, type Projection } from '../journal/index.js';
import {
  perCount,
  pieces,
  type Queryable,
  rowPlaceholders,
  runWrites,
  type SqlValue,
  type Write,
} from '../store/index.js';
import type { CsoChange } from './cso-change.js';
import {
  RELAY_HALT,
  RELAY_SESSION,
  RELAY_WINDOW,
  sessionEntryOf,
  windowEntryOf,
} from './entry-kinds.js';
import { projectedWindow, type RelayWindowEntry } from './session-types.js';
import type { DependencyEdge } from './types.js';

/** The lists of a CSO as `relay_items.list` names them. */
export type ItemList = 'fact' | 'decision' | 'edge';

/** An edge's id in `relay_items` (its two ends as canonical JSON: no separator can collide). */
export const edgeId = (e: DependencyEdge): string => canonicalize([e.dependent, e.depends_on]);

/** Where a window's new items go: after every earlier window's, in the order the change lists. */
const positionOf = (windowNumber: number, i: number) => windowNumber * 2 ** 20 + i;

/** A row of `relay_items`: one version of an item, put by a window at its place in that window. */
interface ItemRow {
  readonly list: ItemList;
  readonly id: string;
  readonly position: number;
  readonly record: string;
}

/** Item versions a window put: `$1` project, `$2` session, `$3` the window; list, id, position and record a row. */
const insertItems = perCount(
  (count) =>
    `INSERT INTO relay_items (project, session_id, window_from, list, item_id, position, record)
   VALUES ${rowPlaceholders(count, 4, 3)}`,
);

/** Items a window removed: `$1` project, `$2` session, `$3` the window; list and id a row. */
const insertRemovals = perCount(
  (count) =>
    `INSERT INTO relay_item_removals (project, session_id, window_to, list, item_id)
   VALUES ${rowPlaceholders(count, 2, 3)}`,
);

/**
 * A window's CSO change as writes, none reading a row: a row per item version it put (every put
 * gets its own place; whether it replaces an earlier version — and so keeps that one's place — is
 * the reader's to tell, `reader.ts`) and one per item it removed. Nothing earlier is updated, so a
 * window's rows go side by side with one another (the tables are keyed by window first).
 */
export function stateWrites(project: string, sessionId: string, state: CsoChange): Write[] {
  const n = state.window_number;
  const key: SqlValue[] = [project, sessionId, n];
  const put = <T extends object>(list: ItemList, items: readonly T[], idOf: (item: T) => string) =>
    items.map(
      (item, i): ItemRow => ({
        list,
        id: idOf(item),
        position: positionOf(n, i),
        record: canonicalize(item),
      }),
    );
  const rows = [
    ...put('fact', state.established_facts.put, (f) => f.fact_id),
    ...put('decision', state.decisions.put, (d) => d.decision_id),
    ...state.dependency_graph.added.map(
      (e): ItemRow => ({ list: 'edge', id: edgeId(e), position: 0, record: canonicalize(e) }),
    ),
  ];
  const removed: [ItemList, string][] = [
    ...state.established_facts.removed.map((id): [ItemList, string] => ['fact', id]),
    ...state.decisions.removed.map((id): [ItemList, string] => ['decision', id]),
    ...state.dependency_graph.removed.map((e): [ItemList, string] => ['edge', edgeId(e)]),
  ];
  return [
    ...pieces(rows).map((piece) => ({
      sql: insertItems(piece.length),
      params: [...key, ...piece.flatMap((r) => [r.list, r.id, r.position, r.record])],
    })),
    ...pieces(removed).map((piece) => ({
      sql: insertRemovals(piece.length),
      params: [...key, ...piece.flat()],
    })),
  ];
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
  return canonicalize(projectedWindow(window));
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
    // Writes to four tables, none reading another's rows: one round trip on PostgreSQL (a
    // window that put more than a piece of items writes the further pieces after).
    await runWrites(tx, [
      {
        sql: `INSERT INTO relay_windows (project, session_id, window_number, seq, base, record, output, quality)
              VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        params: [
          entry.project,
          window.session_id,
          window.window_number,
          entry.seq,
          window.state.base,
          projectedText(entry, window),
          canonicalize(window.output),
          canonicalize(window.quality),
        ],
      },
      {
        sql: `UPDATE relay_sessions SET status = $3, windows = $4, seq = $5
              WHERE project = $1 AND session_id = $2`,
        params: [entry.project, window.session_id, window.status, window.window_number, entry.seq],
      },
      ...stateWrites(entry.project, window.session_id, window.state),
    ]);
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
 * the CSO items row per version with a row per removal, rebuilt by replaying `relay.*` entries
 * (version 1 windows read as changes from nothing). Version 3: window records no longer hold the
 * raw answers. Version 4: item rows are never updated (no `window_to`; removals have their own
 * rows, and a window's `base` says when the whole state was put anew).
 */
export const RELAY_PROJECTION: Projection = {
  name: 'relay',
  kinds: [...RELAY_SESSION.kinds, ...RELAY_WINDOW.kinds, RELAY_HALT.kind],
  tables: ['relay_sessions', 'relay_windows', 'relay_items', 'relay_item_removals'],
  version: 4,
  apply,
};
