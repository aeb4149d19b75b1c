import type { Migration } from '../store/index.js';

/**
 * Migration `relay-items-append-only`: the item tables keyed by window first, each closed by
 * `options` (SQLite's ` WITHOUT ROWID`; nothing on PostgreSQL).
 */
const appendOnlyItems = (options: string) => `
  DROP TABLE relay_items;
  CREATE TABLE relay_items (
    project TEXT NOT NULL,
    session_id TEXT NOT NULL,
    window_from BIGINT NOT NULL,
    list TEXT NOT NULL,
    item_id TEXT NOT NULL,
    position BIGINT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (project, session_id, window_from, list, item_id)
  )${options};
  CREATE TABLE relay_item_removals (
    project TEXT NOT NULL,
    session_id TEXT NOT NULL,
    window_to BIGINT NOT NULL,
    list TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (project, session_id, window_to, list, item_id)
  )${options};
  ALTER TABLE relay_windows ADD COLUMN base TEXT NOT NULL DEFAULT 'prior';
`;

/**
 * SQLite's window rows copied into a new table `name` (closed by `options`) that takes the old
 * one's name: its columns in this order, the small ones before the record.
 */
const rebuiltWindows = (name: string, options: string, order: string) => `
  CREATE TABLE ${name} (
    project TEXT NOT NULL,
    session_id TEXT NOT NULL,
    window_number BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    base TEXT NOT NULL DEFAULT 'prior',
    output TEXT,
    quality TEXT,
    record TEXT NOT NULL,
    PRIMARY KEY (project, session_id, window_number)
  )${options};
  INSERT INTO ${name}
      (project, session_id, window_number, seq, base, output, quality, record)
    SELECT project, session_id, window_number, seq, base, output, quality, record
    FROM relay_windows${order};
  DROP TABLE relay_windows;
  ALTER TABLE ${name} RENAME TO relay_windows;
`;

/**
 * The relay's projection tables, rebuilt from `relay.*` entries. `record` holds canonical JSON:
 * of the session, of the window as journaled (its CSO as a change), of one item. The other columns
 * are for lookup.
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
  {
    // One row per version of a CSO item (fact, decision, edge): in the state from window_from
    // until window_to (null: still in it), so any window's CSO is one query and a window writes
    // only what it changed. position orders facts and decisions as the CSO lists them.
    name: 'relay-items',
    up: `
      CREATE TABLE relay_items (
        project TEXT NOT NULL,
        session_id TEXT NOT NULL,
        list TEXT NOT NULL,
        item_id TEXT NOT NULL,
        window_from BIGINT NOT NULL,
        window_to BIGINT,
        position BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, session_id, list, item_id, window_from)
      );
      CREATE INDEX relay_items_open ON relay_items (project, session_id, window_to);
    `,
  },
  {
    // A window closes its changed items' open rows by id. Without statistics SQLite chose the
    // index above for that (three equal columns) and read every open row of the session — 6,500
    // rows a statement for a CSO of 1,000 facts, 500 decisions and 5,000 edges. Open rows by id
    // instead: at most one open version of an item, which the projection keeps and now enforces.
    name: 'relay-items-open-by-id',
    up: `
      DROP INDEX relay_items_open;
      CREATE UNIQUE INDEX relay_items_open ON relay_items (project, session_id, list, item_id)
        WHERE window_to IS NULL;
    `,
  },
  {
    // What the next window reads of the last few (its repetition and AIR's state): their output
    // text and quality as canonical JSON, so it need not parse whole records (each holds its
    // change and raw answers). Null on rows written before: those are read from `record`.
    name: 'relay-windows-recent',
    up: `
      ALTER TABLE relay_windows ADD COLUMN output TEXT;
      ALTER TABLE relay_windows ADD COLUMN quality TEXT;
    `,
  },
  {
    // Item rows that are never updated. A window closed the rows of what it replaced or removed
    // (an UPDATE of rows written by earlier windows, each on a page of its own) and kept a unique
    // index by id to find them: on SQLite 23 of the 46 pages a window of a 6,500-item CSO wrote.
    // Now a window only inserts — its item versions and its removals, each table keyed by window
    // first (on SQLite without a rowid, so a window's rows share pages) — and the reader tells
    // which version of an id is the state's (`reader.ts`). `base` says a window put its whole
    // state anew. The projection's version 4 rebuilds these tables from the journal.
    name: 'relay-items-append-only',
    up: { sqlite: appendOnlyItems(' WITHOUT ROWID'), postgres: appendOnlyItems('') },
  },
  {
    // No item rows. Since items were never updated, a window's rows held what its record (its
    // CSO's change) holds, and a read of a window's state read every version since the last full
    // put either way; the rows cost a window ~0.3 ms of its 4 (47 rows, 7 of its 25 WAL pages on
    // SQLite). The reader takes the items from the window records now; the projection's version
    // 5 rebuilds what is left from the journal. On SQLite the window rows are kept by their key
    // (without a rowid: no second b-tree for the key, one WAL page less a window) with the small
    // columns before the record, so reading a window's output and quality stays off the record's
    // overflow pages.
    name: 'relay-items-in-window-records',
    up: {
      sqlite: `
        DROP TABLE relay_items;
        DROP TABLE relay_item_removals;
        ${rebuiltWindows('relay_windows_keyed', ' WITHOUT ROWID', '')}
      `,
      postgres: `
        DROP TABLE relay_items;
        DROP TABLE relay_item_removals;
      `,
    },
  },
  {
    // Window rows with a rowid again, on SQLite. Without one, a row is its key's b-tree entry,
    // record and all, and SQLite compares a key with an entry that overflows its page only after
    // reading the entry whole: every seek — the window's own INSERT, a point read of its seq, the
    // last windows' output and quality — read the overflow pages of the records it passed (a
    // 1,000-fact session's windows hold 20–100 KB each). With a rowid, the key is an index of
    // its own and the record stays on its row's pages until it is asked for: for rows of 100 KB,
    // a point read 0.29 → 0.01 ms, an INSERT with its COMMIT 0.46 → 0.17 ms, for one more WAL page
    // a window (the index's). The small columns stay before the record, off its overflow pages.
    name: 'relay-windows-rowid',
    up: {
      sqlite: rebuiltWindows(
        'relay_windows_rows',
        '',
        ' ORDER BY project, session_id, window_number',
      ),
      postgres: 'SELECT 1',
    },
  },
];
