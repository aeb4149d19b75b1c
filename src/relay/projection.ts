import { canonicalize } from '../core/index.js';
import { canonicalBody, type JournalEntry, type Projection } from '../journal/index.js';
import { type Queryable, runWrites } from '../store/index.js';
import {
  RELAY_HALT,
  RELAY_SESSION,
  RELAY_WINDOW,
  sessionEntryOf,
  windowEntryOf,
} from './entry-kinds.js';
import { projectedWindow, type RelayWindowEntry } from './session-types.js';

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
    // Two writes, neither reading the other's rows: one round trip on PostgreSQL. The window's
    // record is its CSO's change: the reader finds the state's items there (`item-rows.ts`).
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
 * The relay's projection: sessions, and their windows as journaled (without their raw answers),
 * rebuilt by replaying `relay.*` entries (version 1 windows read as changes from nothing). Version
 * 3: window records no longer hold the raw answers. Version 4: item rows never updated. Version 5:
 * no item rows — a window's record is its CSO's change, and the reader takes the state's items
 * from the records of the windows since its last full put.
 */
export const RELAY_PROJECTION: Projection = {
  name: 'relay',
  kinds: [...RELAY_SESSION.kinds, ...RELAY_WINDOW.kinds, RELAY_HALT.kind],
  tables: ['relay_sessions', 'relay_windows'],
  version: 5,
  apply,
};
