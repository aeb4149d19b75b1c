import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOURNAL_MIGRATIONS } from '../../src/journal/index.js';
import { RELAY_MIGRATIONS } from '../../src/relay/index.js';
import { closeStatement } from '../../src/relay/projection.js';
import { migrate, SqliteStore } from '../../src/store/index.js';
import { tempDir } from '../helpers/runtime.js';

const ITEM = `INSERT INTO relay_items
  (project, session_id, list, item_id, window_from, window_to, position, record)
  VALUES ($1, $2, $3, $4, $5, $6, $7, '{}')`;

describe("the relay projection's open item rows (SQLite, no statistics)", () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: SqliteStore;

  beforeEach(async () => {
    tmp = tempDir('canonry-relay-index-');
    store = new SqliteStore(join(tmp.dir, 'relay.db'));
    await migrate(store, { journal: JOURNAL_MIGRATIONS, relay: RELAY_MIGRATIONS });
    // A session holding a large state: 3,000 open rows over the three lists, some closed versions.
    await store.transaction(async (tx) => {
      for (let i = 0; i < 3_000; i++) {
        const list = ['fact', 'decision', 'edge'][i % 3]!;
        await tx.run(ITEM, ['p', 's', list, `item-${i}`, 1, i % 10 === 0 ? 2 : null, i]);
        if (i % 10 === 0) await tx.run(ITEM, ['p', 's', list, `item-${i}`, 2, null, i]);
      }
    });
  });

  afterEach(async () => {
    await store.close();
    tmp.cleanup();
  });

  it('closes the rows of the ids a window changed by their ids, not by reading every open row of the session', async () => {
    const params = ['p', 's', 'fact', 3, 'item-0', 'item-3', 'item-6'];
    const plan = await store.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN ${closeStatement(3)}`,
      params,
    );
    const details = plan.map((r) => r.detail).join(' | ');
    expect(details).toMatch(/SEARCH relay_items USING .*item_id=\?/);
    expect(details).not.toMatch(/window_to=\?\)/);
    const closed = await store.all<{ item_id: string; position: number }>(
      closeStatement(3),
      params,
    );
    expect(closed.map((r) => [r.item_id, Number(r.position)]).sort()).toEqual([
      ['item-0', 0],
      ['item-3', 3],
      ['item-6', 6],
    ]);
    // Closed at window 3: the open rows are the rest; item-0's version of window 1 stays closed at 2.
    const open = await store.all<{ item_id: string }>(
      "SELECT item_id FROM relay_items WHERE session_id = 's' AND window_to IS NULL AND item_id IN ('item-0', 'item-3', 'item-6', 'item-9')",
    );
    expect(open.map((r) => r.item_id)).toEqual(['item-9']);
    const item0 = await store.all<{ window_from: number; window_to: number }>(
      "SELECT window_from, window_to FROM relay_items WHERE item_id = 'item-0' ORDER BY window_from",
    );
    expect(item0.map((r) => [Number(r.window_from), Number(r.window_to)])).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });

  it('holds at most one open version of an item, and any number of closed ones', async () => {
    await expect(store.run(ITEM, ['p', 's', 'fact', 'item-3', 3, null, 3])).rejects.toThrow();
    await store.run(ITEM, ['p', 's', 'fact', 'item-3', 3, 4, 3]);
    await store.run(ITEM, ['p', 's2', 'fact', 'item-3', 3, null, 3]);
    const open = await store.all<{ n: number }>(
      "SELECT count(*) AS n FROM relay_items WHERE item_id = 'item-3' AND window_to IS NULL",
    );
    expect(Number(open[0]!.n)).toBe(2);
  });
});
