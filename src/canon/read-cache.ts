import type { Queryable, SqlValue, Write } from '../store/index.js';

// Planning a batch reads the same rows over and over: each item's preparation, plane rules, cycle
// check and cascade read its dependencies and their dependents again, and on PostgreSQL each read
// is a round trip. Between two writes of the planning transaction the rows cannot change under it
// (canon's rows move only through its own writes, and a concurrent append is caught by the batch's
// re-check under the head's lock), so a read repeated before the next write is answered from the
// first one.

/**
 * A plain read: one SELECT without a locking clause and without a parenthesis but an `IN (` list —
 * so no call of a function (which may write: `SELECT … FROM canonry_chain(…)`) and no subquery.
 */
const SELECT = /^\s*SELECT\s/i;
const IN_LIST = /\bIN\s*\(/gi;
const LOCKING = /\bFOR\s+(UPDATE|SHARE|NO\s+KEY|KEY)\b/i;

const cacheable = (sql: string) =>
  SELECT.test(sql) &&
  !sql.includes(';') &&
  !sql.replace(IN_LIST, '').includes('(') &&
  !LOCKING.test(sql);

/** A key for the parameters, or null when one of them is not a string, number or null. */
function paramsKey(params: readonly SqlValue[]): string | null {
  let key = '';
  for (const p of params) {
    if (p === null) key += 'n\u0000';
    else if (typeof p === 'string') key += `s${p.length}:${p}\u0000`;
    else if (typeof p === 'number') key += `d${p}\u0000`;
    else return null;
  }
  return key;
}

/** Fresh copies of cached rows: a caller may change what it was given. */
const copies = <T extends object>(rows: readonly T[]): T[] =>
  rows.map((r) => (Array.isArray(r) ? ([...r] as T) : { ...r }));

/**
 * `tx` with its plain reads kept until its next write: any other statement (`run`, `exec`, a read
 * that locks, calls a function or holds a subquery) forgets everything kept. Only over a transaction whose rows no
 * other writer can change between two of its own writes.
 */
export function withReadCache(tx: Queryable): Queryable {
  const kept = new Map<string, readonly object[]>();
  // A read answered after a write was sent may hold rows from before it: kept only when no write
  // was sent while it ran.
  let writes = 0;
  const forget = () => {
    writes++;
    kept.clear();
  };
  const read = async <T extends object>(
    kind: 'all' | 'values',
    sql: string,
    params: readonly SqlValue[] = [],
  ): Promise<T[]> => {
    const pk = cacheable(sql) ? paramsKey(params) : null;
    if (pk === null) {
      forget();
      return (kind === 'all' ? tx.all(sql, params) : tx.values(sql, params)) as Promise<T[]>;
    }
    const key = `${kind}\u0001${sql}\u0001${pk}`;
    const hit = kept.get(key);
    if (hit) return copies(hit as T[]);
    const before = writes;
    const rows = (await (kind === 'all' ? tx.all(sql, params) : tx.values(sql, params))) as T[];
    if (writes === before) kept.set(key, copies(rows));
    return rows;
  };
  return {
    all: <T extends object>(sql: string, params?: readonly SqlValue[]) =>
      read<T>('all', sql, params),
    values: <T extends readonly unknown[]>(sql: string, params?: readonly SqlValue[]) =>
      read('values', sql, params) as unknown as Promise<T[]>,
    run: (sql, params) => {
      forget();
      return tx.run(sql, params);
    },
    exec: (sql) => {
      forget();
      return tx.exec(sql);
    },
    ...(tx.runTogether
      ? {
          runTogether: (writes: readonly Write[]) => {
            forget();
            return tx.runTogether!(writes);
          },
        }
      : {}),
  };
}
