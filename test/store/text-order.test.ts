// Text in byte order on every engine (src/store/text-order.ts): a key column declared with
// BYTE_ORDER_TEXT, or made so by textInByteOrder, sorts and compares the same on SQLite, on
// PostgreSQL in byte order (C.UTF-8) and on PostgreSQL whose default collation is linguistic (ICU
// en-US, as production databases usually are) — keyset paging returns every key once in
// JavaScript's order, prefix and range reads the same sets (never LIKE: SQLite's ignores ASCII
// case) — and PostgreSQL still reads such an ORDER BY from the column's index.
import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/core/index.js';
import {
  BYTE_ORDER_TEXT,
  type Migration,
  migrate,
  type Queryable,
  type Store,
  textInByteOrder,
} from '../../src/store/index.js';
import { engineTitle, perTest, TEXT_ORDER_ENGINES } from '../helpers/stores.js';

/** Keys that differ by case, punctuation and accents: each order puts them differently. */
const KEYS = ['a', 'B', 'a-b', 'ab', 'é', 'e', 'Z', 'A', 'a_b', 'a.b', 'a1', 'b', 'e-', 'ä'];
const SORTED = [...KEYS].sort(compareCodeUnits);

const { fresh } = perTest();

/**
 * A table keyed by BYTE_ORDER_TEXT, and one keyed by plain TEXT that holds its rows (in the
 * database's collation) before a later migration puts the key in byte order, as an upgrade does.
 */
async function keyed(store: Store): Promise<string[]> {
  const dialect = store.capabilities.dialect;
  const tables: Migration = {
    name: 'tables',
    up: `CREATE TABLE declared_keys (project TEXT NOT NULL, k ${BYTE_ORDER_TEXT[dialect]} NOT NULL, PRIMARY KEY (project, k));
         CREATE TABLE altered_keys (project TEXT NOT NULL, k TEXT NOT NULL, PRIMARY KEY (project, k));`,
  };
  await migrate(store, { text_order_test: [tables] });
  for (const table of ['declared_keys', 'altered_keys']) {
    for (const k of KEYS)
      await store.run(`INSERT INTO ${table} (project, k) VALUES ('p', $1)`, [k]);
  }
  const byteOrder = { name: 'byte-order', up: textInByteOrder({ altered_keys: ['k'] }) };
  expect(await migrate(store, { text_order_test: [tables, byteOrder] })).toBe(1);
  return ['declared_keys', 'altered_keys'];
}

async function keys(db: Queryable, sql: string, params: string[]): Promise<string[]> {
  return (await db.all<{ k: string }>(sql, params)).map((r) => r.k);
}

for (const engine of TEXT_ORDER_ENGINES) {
  describe.skipIf(!engine.available)(`text in byte order on ${engineTitle(engine)}`, () => {
    it('keyset paging returns every key once, in the same order as JavaScript and SQLite', async () => {
      const { store } = await fresh(engine);
      for (const table of await keyed(store)) {
        const seen: string[] = [];
        let last = '';
        for (;;) {
          const page = await keys(
            store,
            `SELECT k FROM ${table} WHERE project = 'p' AND k > $1 ORDER BY k LIMIT 3`,
            [last],
          );
          if (page.length === 0) break;
          seen.push(...page);
          last = page.at(-1)!;
        }
        expect(seen, table).toEqual(SORTED);
        expect(
          await keys(store, `SELECT k FROM ${table} WHERE project = 'p' ORDER BY k DESC`, []),
        ).toEqual([...SORTED].reverse());
      }
    });

    it('prefix, range and BETWEEN reads give the same set as JavaScript', async () => {
      const { store } = await fresh(engine);
      const within = (low: string, high: string) => SORTED.filter((k) => k >= low && k < high);
      for (const table of await keyed(store)) {
        const read = (where: string, params: string[]) =>
          keys(store, `SELECT k FROM ${table} WHERE project = 'p' AND ${where} ORDER BY k`, params);
        expect(await read('k >= $1 AND k < $2', ['a', 'b'])).toEqual(within('a', 'b'));
        expect(await read('k >= $1 AND k < $2', ['A', 'a'])).toEqual(within('A', 'a'));
        expect(await read('k >= $1 AND k < $2', ['e', 'f'])).toEqual(within('e', 'f'));
        expect(await read(`k >= $1 AND k < $1 || '\uffff'`, ['a'])).toEqual(
          SORTED.filter((k) => k.startsWith('a')),
        );
        expect(await read('k BETWEEN $1 AND $2', ['B', 'a'])).toEqual(
          SORTED.filter((k) => k >= 'B' && k <= 'a'),
        );
        expect(await read('substr(k, 1, length($1)) = $1', ['a'])).toEqual(
          SORTED.filter((k) => k.startsWith('a')),
        );
        expect(await read('k > $1', ['e'])).toEqual(SORTED.filter((k) => k > 'e'));
      }
    });

    it.runIf(engine.name === 'postgres')(
      'reads such an ORDER BY from the key index, with no sort',
      async () => {
        const { store } = await fresh(engine);
        for (const table of await keyed(store)) {
          const plan = await store.transaction(async (tx) => {
            await tx.exec('SET LOCAL enable_seqscan = off');
            const rows = await tx.all<{ 'QUERY PLAN': unknown }>(
              `EXPLAIN (FORMAT JSON) SELECT k FROM ${table} WHERE project = 'p' AND k > 'a' ORDER BY k LIMIT 3`,
            );
            return JSON.stringify(rows[0]!['QUERY PLAN']);
          });
          expect(plan, table).toContain(`"Index Name":"${table}_pkey"`);
          expect(plan, table).not.toContain('"Node Type":"Sort"');
        }
      },
    );
  });
}
