import { afterEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { canonicalize } from '../../src/core/index.js';
import { tempDir } from '../helpers/runtime.js';
import { ledgerSession, reviseCopy } from './ledger-session.js';

const PROJECT = 'relay-rowid';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };

/** The window rows as migration `relay-items-in-window-records` left them on SQLite: no rowid. */
const KEYED = `
  CREATE TABLE relay_windows_keyed (
    project TEXT NOT NULL, session_id TEXT NOT NULL, window_number BIGINT NOT NULL,
    seq BIGINT NOT NULL, base TEXT NOT NULL DEFAULT 'prior', output TEXT, quality TEXT,
    record TEXT NOT NULL,
    PRIMARY KEY (project, session_id, window_number)
  ) WITHOUT ROWID;
  INSERT INTO relay_windows_keyed SELECT project, session_id, window_number, seq, base, output,
    quality, record FROM relay_windows;
  DROP TABLE relay_windows;
  ALTER TABLE relay_windows_keyed RENAME TO relay_windows;
`;

/** Every window row's columns, in key order. */
const windowRows = (runtime: CanonryRuntime) =>
  runtime.store.all(
    `SELECT project, session_id, window_number, seq, base, output, quality, record
     FROM relay_windows ORDER BY project, session_id, window_number`,
  );

/** The table's DDL as SQLite keeps it. */
const tableSql = async (runtime: CanonryRuntime) => {
  const [row] = await runtime.store.all<{ sql: string }>(
    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'relay_windows'",
  );
  return row?.sql ?? '';
};

describe('window rows kept without a rowid (SQLite, before migration relay-windows-rowid)', () => {
  const closing: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  it('are carried into a table with a rowid, column for column, and the sessions go on', async () => {
    const { dir, cleanup } = tempDir();
    closing.push(cleanup);
    const open = () => createCanonry({ dataDir: dir, logLevel: 'silent' });
    const first = await open();
    // This code's table keeps a rowid: without one, every seek read the records it passed whole.
    expect(await tableSql(first)).not.toMatch(/WITHOUT\s+ROWID/i);
    const sessions: string[] = [];
    for (const objective of ['Move the ledger', 'Move the search index']) {
      sessions.push(await ledgerSession(first, AGENT, objective));
    }
    const states = async (runtime: CanonryRuntime) =>
      Promise.all(
        sessions.map(async (id) =>
          (await runtime.relay.windows(AGENT, id)).map((w) => canonicalize(w.cso)),
        ),
      );
    const before = await states(first);
    // The layout of the code before, with this code's rows in it, and its migration not yet run.
    await first.store.exec(KEYED);
    await first.store.run('DELETE FROM canonry_migrations WHERE name = $1', [
      'relay-windows-rowid',
    ]);
    expect(await tableSql(first)).toMatch(/WITHOUT\s+ROWID/i);
    const rows = await windowRows(first);
    expect(rows).toHaveLength(4);
    await first.close();

    const second = await open();
    closing.push(() => second.close());
    expect(await tableSql(second)).not.toMatch(/WITHOUT\s+ROWID/i);
    expect(await windowRows(second)).toEqual(rows);
    expect(await states(second)).toEqual(before);
    for (const id of sessions) {
      expect(await second.relay.verify(AGENT, id)).toMatchObject({ ok: true, windows: 2 });
    }
    // A window after the migration lands beside the carried ones and reads back: the revision
    // the superseded size asks for.
    const third = await reviseCopy(second, AGENT, sessions[0]!);
    expect(third.status).toBe('relayed');
    expect(await second.relay.verify(AGENT, sessions[0]!)).toMatchObject({ ok: true, windows: 3 });
    const after = await windowRows(second);
    const numbers = (id: string) =>
      after.filter((r) => r.session_id === id).map((r) => Number(r.window_number));
    expect(numbers(sessions[0]!)).toEqual([1, 2, 3]);
    expect(numbers(sessions[1]!)).toEqual([1, 2]);
  });
});
