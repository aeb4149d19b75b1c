import type { Migration } from '../store/index.js';

/**
 * The relay's projection tables, rebuilt from `relay.*` entries. `record` holds the canonical JSON
 * of the session or window; the other columns are for lookup.
 */
export const RELAY_MIGRATIONS: readonly Migration[] = [
  {
    name: 'relay',
    up: `
      CREATE TABLE relay_sessions (
        project TEXT NOT NULL,
        session_id TEXT NOT NULL,
        status TEXT NOT NULL,
        windows BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, session_id)
      );
      CREATE TABLE relay_windows (
        project TEXT NOT NULL,
        session_id TEXT NOT NULL,
        window_number BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, session_id, window_number)
      );
    `,
  },
];
