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

  it('closes the rows of the items a window changed by list and id, every list in one statement, not by reading every open row of the session', async () => {
    const items = [
      ['fact', 'item-0'],
      ['fact', 'item-3'],
      ['decision', 'item-1'],
      ['edge', 'item-2'],
      // Not open in that list (item-4 is a decision): nothing to close.
      ['fact', 'item-4'],
    ];
    const params = ['p', 's', 3, ...items.flat()];
    const plan = await store.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN ${closeStatement(items.length)}`,
      params,
    );
    const details = plan.map((r) => r.detail).join(' | ');
    expect(details).toMatch(/SEARCH relay_items USING .*list=\? AND item_id=\?/);
    expect(details).not.toMatch(/window_to=\?\)/);
    const closed = await store.all<{ list: string; item_id: string; position: number }>(
      closeStatement(items.length),
      params,
    );
    expect(closed.map((r) => [r.list, r.item_id, Number(r.position)]).sort()).toEqual([
      ['decision', 'item-1', 1],
      ['edge', 'item-2', 2],
      ['fact', 'item-0', 0],
      ['fact', 'item-3', 3],
    ]);
    // Closed at window 3: the open rows are the rest; item-0's version of window 1 stays closed at 2.
    const open = await store.all<{ item_id: string }>(
      "SELECT item_id FROM relay_items WHERE session_id = 's' AND window_to IS NULL AND item_id IN ('item-0', 'item-1', 'item-2', 'item-3', 'item-4', 'item-9') ORDER BY item_id",
    );
    expect(open.map((r) => r.item_id)).toEqual(['item-4', 'item-9']);
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
