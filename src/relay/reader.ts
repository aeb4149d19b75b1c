import type { Queryable } from '../store/index.js';
import type { RelaySessionRecord, RelayWindowRecord, SessionStatus } from './session-types.js';

/** A session row: the record as started, where it stands, and how many windows it has. */
export interface SessionRow {
  readonly session: RelaySessionRecord;
  readonly status: SessionStatus;
  readonly windows: number;
}

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
      session: JSON.parse(row.record) as RelaySessionRecord,
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
      session: JSON.parse(row.record) as RelaySessionRecord,
      status: row.status as SessionStatus,
      windows: Number(row.windows),
    }));
  }

  async window(sessionId: string, windowNumber: number): Promise<RelayWindowRecord | null> {
    const [row] = await this.#db.all<{ record: string }>(
      `SELECT record FROM relay_windows WHERE project = $1 AND session_id = $2 AND window_number = $3`,
      [this.#project, sessionId, windowNumber],
    );
    return row ? (JSON.parse(row.record) as RelayWindowRecord) : null;
  }

  /** The session's windows in order (`after` the given number, at most `limit`). */
  async windows(sessionId: string, after = 0, limit = 1_000): Promise<RelayWindowRecord[]> {
    const rows = await this.#db.all<{ record: string }>(
      `SELECT record FROM relay_windows WHERE project = $1 AND session_id = $2 AND window_number > $3
       ORDER BY window_number LIMIT $4`,
      [this.#project, sessionId, after, limit],
    );
    return rows.map((row) => JSON.parse(row.record) as RelayWindowRecord);
  }

  /** The session's last `n` windows, oldest first. */
  async recent(sessionId: string, n: number): Promise<RelayWindowRecord[]> {
    const rows = await this.#db.all<{ record: string }>(
      `SELECT record FROM relay_windows WHERE project = $1 AND session_id = $2
       ORDER BY window_number DESC LIMIT $3`,
      [this.#project, sessionId, n],
    );
    return rows.map((row) => JSON.parse(row.record) as RelayWindowRecord).reverse();
  }
}
