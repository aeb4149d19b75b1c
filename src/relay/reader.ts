import { CanonryError } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import { applyChange, compareEdges } from './cso-change.js';
import { liveItems, type NumberedChange, versionsOf } from './item-rows.js';
import type {
  ProjectedWindowEntry,
  RelaySessionRecord,
  RelayWindowEntry,
  RelayWindowRecord,
  SessionStatus,
} from './session-types.js';
import type { CognitiveStateObject, Decision, DependencyEdge, EstablishedFact } from './types.js';

/** A session row: the record as started, where it stands, and how many windows it has. */
export interface SessionRow {
  readonly session: RelaySessionRecord;
  readonly status: SessionStatus;
  readonly windows: number;
}

/**
 * A JSON column of the relay's projection, parsed: STORE_CORRUPT naming what it held when it does
 * not parse (a damaged or hand-edited row; rebuilding the projection from the journal mends it).
 */
function stored<T>(text: string | null, what: string, windowNumber?: number): T {
  try {
    return JSON.parse(text ?? '') as T;
  } catch {
    throw new CanonryError(
      'STORE_CORRUPT',
      `the relay projection's ${what} is unreadable; rebuild the projection from the journal`,
      windowNumber === undefined ? {} : { window_number: windowNumber },
    );
  }
}

/** The last window up to `$3` that put its whole state anew: nothing before it is in `$3`'s state. */
const SINCE = `(SELECT coalesce(max(window_number), 0) FROM relay_windows
  WHERE project = $1 AND session_id = $2 AND window_number <= $3 AND base = 'empty')`;

/**
 * The records of the windows before `$3` whose changes make its state: from the last full put up to
 * `$3` (`$3` itself excluded: the caller has its entry), in window order. One range of the table's
 * key.
 */
export const EARLIER_CHANGES_SQL = `SELECT window_number, record FROM relay_windows
  WHERE project = $1 AND session_id = $2 AND window_number >= ${SINCE} AND window_number < $3
  ORDER BY window_number`;

/** A window's record with its CSO whole, from the entry and the CSO it makes. */
export function recordOf(
  entry: ProjectedWindowEntry,
  cso: CognitiveStateObject,
): RelayWindowRecord {
  const {
    state: _state,
    sealed_over: _sealed,
    status: _status,
    context_packet_hash: _hash,
    ...rest
  } = entry as RelayWindowEntry;
  return { ...rest, cso };
}

/** What a window reads of the ones before it: their output and quality. */
export type RecentWindow = Pick<RelayWindowEntry, 'output' | 'quality'>;

/** Reads the relay's projection of one project. */
export class RelayReader {
  readonly #db: Pick<Queryable, 'all'>;
  readonly #project: string;

  constructor(db: Pick<Queryable, 'all'>, project: string) {
    this.#db = db;
    this.#project = project;
  }

  async session(sessionId: string): Promise<SessionRow | null> {
    const [row] = await this.#db.all<{ status: string; windows: number | string; record: string }>(
      'SELECT status, windows, record FROM relay_sessions WHERE project = $1 AND session_id = $2',
      [this.#project, sessionId],
    );
    if (!row) return null;
    return {
      session: stored<RelaySessionRecord>(row.record, `session ${sessionId}`),
      status: row.status as SessionStatus,
      windows: Number(row.windows),
    };
  }

  async sessions(limit = 100): Promise<SessionRow[]> {
    const rows = await this.#db.all<{ status: string; windows: number | string; record: string }>(
      `SELECT status, windows, record FROM relay_sessions WHERE project = $1
       ORDER BY seq DESC LIMIT $2`,
      [this.#project, limit],
    );
    return rows.map((row) => ({
      session: stored<RelaySessionRecord>(row.record, 'session'),
      status: row.status as SessionStatus,
      windows: Number(row.windows),
    }));
  }

  /** One window as journaled (its CSO as a change), without its raw answers. */
  async entry(sessionId: string, windowNumber: number): Promise<ProjectedWindowEntry | null> {
    return (await this.journaled(sessionId, windowNumber))?.entry ?? null;
  }

  /** One window as journaled (without its raw answers), with the journal seq of its entry. */
  async journaled(
    sessionId: string,
    windowNumber: number,
  ): Promise<{ entry: ProjectedWindowEntry; seq: number } | null> {
    const [row] = await this.#db.all<{ record: string; seq: number | string }>(
      `SELECT record, seq FROM relay_windows WHERE project = $1 AND session_id = $2 AND window_number = $3`,
      [this.#project, sessionId, windowNumber],
    );
    return row
      ? {
          entry: stored<ProjectedWindowEntry>(row.record, `window ${windowNumber}`, windowNumber),
          seq: Number(row.seq),
        }
      : null;
  }

  /** The journal seq of a window's entry (null when there is none): one column, nothing parsed. */
  async seq(sessionId: string, windowNumber: number): Promise<number | null> {
    const [row] = await this.#db.all<{ seq: number | string }>(
      `SELECT seq FROM relay_windows WHERE project = $1 AND session_id = $2 AND window_number = $3`,
      [this.#project, sessionId, windowNumber],
    );
    return row ? Number(row.seq) : null;
  }

  /** The journal seqs of the session's windows `after` the given number, at most `limit`, in order. */
  async seqs(
    sessionId: string,
    after = 0,
    limit = 1_000,
  ): Promise<{ window_number: number; seq: number }[]> {
    const rows = await this.#db.all<{ window_number: number | string; seq: number | string }>(
      `SELECT window_number, seq FROM relay_windows WHERE project = $1 AND session_id = $2
       AND window_number > $3 ORDER BY window_number LIMIT $4`,
      [this.#project, sessionId, after, limit],
    );
    return rows.map((row) => ({ window_number: Number(row.window_number), seq: Number(row.seq) }));
  }

  /**
   * The session's windows as journaled (without their raw answers), in order (`after` the given
   * number, at most `limit`).
   */
  async entries(sessionId: string, after = 0, limit = 1_000): Promise<ProjectedWindowEntry[]> {
    const rows = await this.#db.all<{ window_number: number | string; record: string }>(
      `SELECT window_number, record FROM relay_windows WHERE project = $1 AND session_id = $2
       AND window_number > $3 ORDER BY window_number LIMIT $4`,
      [this.#project, sessionId, after, limit],
    );
    return rows.map((row) => {
      const n = Number(row.window_number);
      return stored<ProjectedWindowEntry>(row.record, `window ${n}`, n);
    });
  }

  /**
   * The CSO of `entry`'s window: its items from the changes of the windows since the state's last
   * full put (`item-rows.ts`), its header from the entry.
   */
  async cso(entry: ProjectedWindowEntry): Promise<CognitiveStateObject> {
    const n = entry.window_number;
    const changes: NumberedChange[] = [];
    if (entry.state.base !== 'empty') {
      const rows = await this.#db.all<{ window_number: number | string; record: string }>(
        EARLIER_CHANGES_SQL,
        [this.#project, entry.session_id, n],
      );
      for (const row of rows) {
        const k = Number(row.window_number);
        const earlier = stored<ProjectedWindowEntry>(row.record, `window ${k}`, k);
        changes.push({ window_number: Number(row.window_number), state: earlier.state });
      }
    }
    changes.push({ window_number: n, state: entry.state });
    const { versions, removals } = versionsOf(changes);
    const facts: EstablishedFact[] = [];
    const decisions: Decision[] = [];
    const edges: DependencyEdge[] = [];
    for (const item of liveItems(versions, removals, n)) {
      if (item.list === 'fact') facts.push(item.record as EstablishedFact);
      else if (item.list === 'decision') decisions.push(item.record as Decision);
      else edges.push(item.record as DependencyEdge);
    }
    return applyChange(null, {
      ...entry.state,
      base: 'empty',
      established_facts: { removed: [], put: facts },
      decisions: { removed: [], put: decisions },
      dependency_graph: { removed: [], added: edges.sort(compareEdges) },
    });
  }

  async window(sessionId: string, windowNumber: number): Promise<RelayWindowRecord | null> {
    const entry = await this.entry(sessionId, windowNumber);
    return entry ? recordOf(entry, await this.cso(entry)) : null;
  }

  /**
   * The session's windows in order (`after` the given number, at most `limit`), each with its CSO:
   * the first from its items' rows, the others folded from it by their changes.
   */
  async windows(sessionId: string, after = 0, limit = 1_000): Promise<RelayWindowRecord[]> {
    const entries = await this.entries(sessionId, after, limit);
    const out: RelayWindowRecord[] = [];
    let prior: CognitiveStateObject | null = null;
    for (const entry of entries) {
      const cso: CognitiveStateObject =
        prior === null && entry.state.base === 'prior'
          ? await this.cso(entry)
          : applyChange(prior, entry.state);
      out.push(recordOf(entry, cso));
      prior = cso;
    }
    return out;
  }

  /**
   * The output and quality of the session's last `n` windows, oldest first: read from their own
   * columns, not from the whole records (rows written before those columns: from the record).
   */
  async recent(sessionId: string, n: number): Promise<RecentWindow[]> {
    const rows = await this.#db.all<{
      output: string | null;
      quality: string | null;
      record: string | null;
    }>(
      `SELECT output, quality, CASE WHEN output IS NULL OR quality IS NULL THEN record END AS record
       FROM relay_windows WHERE project = $1 AND session_id = $2
       ORDER BY window_number DESC LIMIT $3`,
      [this.#project, sessionId, n],
    );
    return rows
      .map((row): RecentWindow => {
        if (row.output !== null && row.quality !== null) {
          return {
            output: stored(row.output, 'window output'),
            quality: stored(row.quality, 'window quality'),
          };
        }
        const { output, quality } = stored<RelayWindowEntry>(row.record, 'window');
        return { output, quality };
      })
      .reverse();
  }
}
