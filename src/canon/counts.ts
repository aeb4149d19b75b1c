import { pieces, type Queryable, rowPlaceholders, type Write } from '../store/index.js';
import type { ProposalStatus } from './records.js';
import type { ObjectStatus } from './types.js';

/**
 * The board's totals, kept by canon's projection in `canon_counts`: how many objects of each
 * status, proposals of each status and artifacts a project holds, per reader scope — `all` (what the
 * operator reads), `shared` (rows whose `holder` is null: every principal reads them) and
 * `personal` with the holder (rows another principal never reads). A viewer's total is the sum of
 * two scopes' rows, the operator's one scope's: a handful of rows whatever the project holds. A
 * count that falls to zero loses its row, so the table is the same however the project got there
 * (live, rebuilt from the journal, or filled by the `canon-counts` migration).
 */

/** What a count counts: objects (by status), proposals (by status), artifacts (status ''). */
export type CountedKind = 'object' | 'proposal' | 'artifact';

/** Where one row stands for the counts: its status ('' for artifacts) and holder (null: shared). */
export interface CountedRow {
  readonly status: string;
  readonly holder: string | null;
}

/** How many rows a reader may read, by kind and status. */
export interface CanonCounts {
  readonly objects: ReadonlyMap<ObjectStatus, number>;
  readonly proposals: ReadonlyMap<ProposalStatus, number>;
  readonly artifacts: number;
}

/** One row of `canon_counts` and how much this transaction moved it. */
interface Delta {
  readonly project: string;
  readonly scope: 'all' | 'shared' | 'personal';
  readonly holder: string;
  readonly kind: CountedKind;
  readonly status: string;
  n: number;
}

/**
 * The moves of this transaction not yet written: the rows a batch moves many times (a proposal
 * opened pending and committed, a note created) are written once, net, when it settles. A
 * transaction that rolls back takes its map with it.
 */
const moved = new WeakMap<Queryable, Map<string, Delta>>();

/** Transactions a rehearsal is applying entries to (`rehearsal.ts`): they count nothing. */
const rehearsing = new WeakSet<Queryable>();

/**
 * Runs `work` with nothing counted on `tx`: a rehearsal's rows are rolled back, and a count it
 * moved would outlive them.
 */
export async function uncounted<T>(tx: Queryable, work: () => Promise<T>): Promise<T> {
  rehearsing.add(tx);
  try {
    return await work();
  } finally {
    rehearsing.delete(tx);
  }
}

function add(tx: Queryable, project: string, kind: CountedKind, row: CountedRow, by: number): void {
  let deltas = moved.get(tx);
  if (!deltas) {
    deltas = new Map();
    moved.set(tx, deltas);
  }
  const scopes: [Delta['scope'], string][] = [
    ['all', ''],
    row.holder === null ? ['shared', ''] : ['personal', row.holder],
  ];
  for (const [scope, holder] of scopes) {
    const key = [project, scope, holder, kind, row.status].join('\u0000');
    const delta = deltas.get(key);
    if (delta) delta.n += by;
    else deltas.set(key, { project, scope, holder, kind, status: row.status, n: by });
  }
}

/**
 * Counts a row of `kind` moving from `from` to `to` (null: absent before, or after): written when
 * the transaction settles ({@link countWrites}).
 */
export function countMove(
  tx: Queryable,
  project: string,
  kind: CountedKind,
  from: CountedRow | null,
  to: CountedRow | null,
): void {
  if (rehearsing.has(tx)) return;
  if (from && to && from.status === to.status && from.holder === to.holder) return;
  if (from) add(tx, project, kind, from, -1);
  if (to) add(tx, project, kind, to, 1);
}

/** The columns that name one count, in its primary key's order. */
const KEY = 'project, scope, holder, kind, status';

/**
 * The writes of this transaction's net moves, taken from it: one upsert of every count that moved,
 * then a delete of the counts it brought to zero (none when nothing fell, as when notes are only
 * created).
 */
export function countWrites(tx: Queryable): Write[] {
  const deltas = moved.get(tx);
  if (!deltas) return [];
  moved.delete(tx);
  const changed = [...deltas.values()].filter((d) => d.n !== 0);
  const columns = (d: Delta) => [d.project, d.scope, d.holder, d.kind, d.status];
  const writes: Write[] = pieces(changed).map((piece) => ({
    sql: `INSERT INTO canon_counts (${KEY}, n) VALUES ${rowPlaceholders(piece.length, 6)}
       ON CONFLICT (${KEY}) DO UPDATE SET n = canon_counts.n + excluded.n`,
    params: piece.flatMap((d) => [...columns(d), d.n]),
  }));
  for (const piece of pieces(changed.filter((d) => d.n < 0))) {
    const keys = piece.map((_, i) => {
      const at = (c: number) => `$${5 * i + c}`;
      return `(project = ${at(1)} AND scope = ${at(2)} AND holder = ${at(3)} AND kind = ${at(4)} AND status = ${at(5)})`;
    });
    writes.push({
      sql: `DELETE FROM canon_counts WHERE n = 0 AND (${keys.join(' OR ')})`,
      params: piece.flatMap(columns),
    });
  }
  return writes;
}

/**
 * The SQL of what `viewer` (null: the operator) may count, `$1` the project: the `all` scope's rows
 * for the operator, the `shared` scope's and the viewer's own `personal` ones otherwise (LCSM §14:
 * `holder IS NULL` or `holder = viewer`, as a page reads them). Rows are `{ kind, status, n }`.
 */
export function countsSql(viewer: string | null): { sql: string; params: string[] } {
  const select = 'SELECT kind, status, n FROM canon_counts WHERE project = $1';
  if (viewer === null) return { sql: `${select} AND scope = 'all' AND holder = ''`, params: [] };
  return {
    sql: `${select} AND scope = 'shared' AND holder = '' UNION ALL ${select} AND scope = 'personal' AND holder = $2`,
    params: [viewer],
  };
}

/** The counts of {@link countsSql}'s rows, summed by kind and status. */
export function countsOf(
  rows: readonly { kind: string; status: string; n: number | string }[],
): CanonCounts {
  const objects = new Map<ObjectStatus, number>();
  const proposals = new Map<ProposalStatus, number>();
  let artifacts = 0;
  for (const r of rows) {
    const n = Number(r.n);
    if (r.kind === 'object')
      objects.set(r.status as ObjectStatus, (objects.get(r.status as ObjectStatus) ?? 0) + n);
    else if (r.kind === 'proposal')
      proposals.set(
        r.status as ProposalStatus,
        (proposals.get(r.status as ProposalStatus) ?? 0) + n,
      );
    else if (r.kind === 'artifact') artifacts += n;
  }
  return { objects, proposals, artifacts };
}
