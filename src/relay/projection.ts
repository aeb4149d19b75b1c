import { canonicalize } from '../core/index.js';
import type { JournalEntry, Projection } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { RELAY_HALT, RELAY_SESSION, RELAY_WINDOW } from './entry-kinds.js';
import { pendingRevisions } from './pending.js';
import type { RelayWindowRecord, SessionStatus } from './session-types.js';

/** A session is complete when nothing remains of its work and no revision is due. */
export function statusAfter(window: RelayWindowRecord): SessionStatus {
  return window.remaining.length === 0 && pendingRevisions(window.cso).length === 0
    ? 'complete'
    : 'active';
}

async function apply(tx: Queryable, entry: JournalEntry): Promise<void> {
  if (RELAY_SESSION.is(entry)) {
    const { session } = entry.body;
    await tx.run(
      `INSERT INTO relay_sessions (project, session_id, status, windows, seq, record)
       VALUES ($1, $2, 'active', 0, $3, $4)`,
      [entry.project, session.session_id, entry.seq, canonicalize(session)],
    );
  } else if (RELAY_WINDOW.is(entry)) {
    const { window } = entry.body;
    await tx.run(
      `INSERT INTO relay_windows (project, session_id, window_number, seq, record)
       VALUES ($1, $2, $3, $4, $5)`,
      [entry.project, window.session_id, window.window_number, entry.seq, canonicalize(window)],
    );
    await tx.run(
      `UPDATE relay_sessions SET status = $3, windows = $4, seq = $5
       WHERE project = $1 AND session_id = $2`,
      [entry.project, window.session_id, statusAfter(window), window.window_number, entry.seq],
    );
  } else if (RELAY_HALT.is(entry)) {
    const { halt } = entry.body;
    await tx.run(
      `UPDATE relay_sessions SET status = 'halted', seq = $3 WHERE project = $1 AND session_id = $2`,
      [entry.project, halt.session_id, entry.seq],
    );
  }
}

/** The relay's projection: sessions and their windows, rebuilt by replaying `relay.*` entries. */
export const RELAY_PROJECTION: Projection = {
  name: 'relay',
  kinds: [RELAY_SESSION.kind, RELAY_WINDOW.kind, RELAY_HALT.kind],
  tables: ['relay_sessions', 'relay_windows'],
  version: 1,
  apply,
};
