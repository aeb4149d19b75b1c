import { afterEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { canonicalize } from '../../src/core/index.js';
import { tempDir } from '../helpers/runtime.js';
import { ENGINES, freshPostgresSchema } from '../helpers/stores.js';
import { ledgerSession, reviseCopy } from './ledger-session.js';

const PROJECT = 'relay-upgrade';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };

/** The item tables as projection version 4 kept them (migration `relay-items-append-only`). */
const OLD_TABLES = `
  CREATE TABLE relay_items (
    project TEXT NOT NULL, session_id TEXT NOT NULL, window_from BIGINT NOT NULL,
    list TEXT NOT NULL, item_id TEXT NOT NULL, position BIGINT NOT NULL, record TEXT NOT NULL,
    PRIMARY KEY (project, session_id, window_from, list, item_id)
  );
  CREATE TABLE relay_item_removals (
    project TEXT NOT NULL, session_id TEXT NOT NULL, window_to BIGINT NOT NULL,
    list TEXT NOT NULL, item_id TEXT NOT NULL,
    PRIMARY KEY (project, session_id, window_to, list, item_id)
  );
`;

describe.each(ENGINES.filter((e) => e.available))(
  'a store whose relay projection kept item rows (version 4), opened by this code, on $name',
  (engine) => {
    const closing: (() => Promise<void> | void)[] = [];
    afterEach(async () => {
      for (const close of closing.splice(0).reverse()) await close();
    });

    it('drops the item tables, rebuilds the window rows from the journal, and serves every window as before', async () => {
      const { dir, cleanup } = tempDir();
      closing.push(cleanup);
      let db: string | undefined;
      if (engine.name === 'postgres') {
        const pg = await freshPostgresSchema();
        closing.push(() => pg.drop());
        db = pg.url;
      }
      const open = () => createCanonry({ dataDir: dir, ...(db ? { db } : {}), logLevel: 'silent' });
      const first: CanonryRuntime = await open();
      const id = await ledgerSession(first, AGENT);
      const before = (await first.relay.windows(AGENT, id)).map((w) => canonicalize(w.cso));
      expect(before).toHaveLength(2);
      // What the code before left: its item tables (with rows), its migration not yet run, its
      // projection version recorded, and window rows this version would not have written (their
      // output and quality columns empty, as rows from before those columns were).
      await first.store.exec(OLD_TABLES);
      await first.store.run(
        `INSERT INTO relay_items (project, session_id, window_from, list, item_id, position, record)
         VALUES ($1, $2, 1, 'fact', 'fact_regions', 1048576, '{}')`,
        [PROJECT, id],
      );
      await first.store.run('DELETE FROM canonry_migrations WHERE name = $1', [
        'relay-items-in-window-records',
      ]);
      await first.store.run(
        "UPDATE journal_projection_versions SET version = 4 WHERE name = 'relay'",
      );
      await first.store.run('UPDATE relay_windows SET output = NULL, quality = NULL');
      await first.close();

      const second = await open();
      closing.push(() => second.close());
      for (const table of ['relay_items', 'relay_item_removals']) {
        await expect(second.store.all(`SELECT count(*) FROM ${table}`)).rejects.toThrow();
      }
      const [version] = await second.store.all<{ version: number | string }>(
        "SELECT version FROM journal_projection_versions WHERE name = 'relay'",
      );
      expect(Number(version?.version)).toBe(5);
      // Rebuilt from the journal: the columns are filled again.
      const [empty] = await second.store.all<{ n: number | string }>(
        'SELECT count(*) AS n FROM relay_windows WHERE output IS NULL OR quality IS NULL',
      );
      expect(Number(empty?.n)).toBe(0);
      expect((await second.relay.windows(AGENT, id)).map((w) => canonicalize(w.cso))).toEqual(
        before,
      );
      expect(await second.relay.verify(AGENT, id)).toMatchObject({ ok: true, windows: 2 });
      // And the session goes on from the rebuilt rows: the decision resting on the superseded
      // size is revised.
      const third = await reviseCopy(second, AGENT, id);
      const facts = third.cso?.established_facts.map((f) => f.fact_id) ?? [];
      expect(facts).toEqual(expect.arrayContaining(['fact_regions', 'fact_size_3']));
      expect(facts).not.toContain('fact_size');
      expect(third.cso?.decisions.map((d) => d.decision_id)).toContain('decision_copy_r1');
      expect(await second.relay.verify(AGENT, id)).toMatchObject({ ok: true, windows: 3 });
    });
  },
);
