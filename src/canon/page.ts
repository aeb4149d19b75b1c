import type { ProposalStatus } from './records.js';
import { OBJECT_STATUSES, type ObjectStatus } from './types.js';

/**
 * One page of a list in journal order: what was journaled after `after` and before `before` (journal
 * seqs, both exclusive), oldest or newest first, at most `limit`.
 */
export interface PageQuery {
  readonly after?: number;
  readonly before?: number;
  readonly order?: 'oldest' | 'newest';
  readonly limit: number;
}

/** What a page of proposals may be filtered by: one status, or `decided` (committed or rejected). */
export type ProposalFilter = ProposalStatus | 'decided';

/** One page of a project's proposals, optionally of one status ({@link PageQuery}). */
export interface ProposalPageQuery extends PageQuery {
  readonly status?: ProposalFilter;
}

/**
 * One page of a project's objects in id order (byte order on every engine): those whose id sorts
 * after `after`, optionally only those of `statuses`, at most `limit`.
 */
export interface ObjectPageQuery {
  readonly after?: string;
  readonly statuses?: readonly ObjectStatus[];
  readonly limit: number;
}

/** One page of a project's artifacts in id order (byte order): after `after`, at most `limit`. */
export interface ArtifactPageQuery {
  readonly after?: string;
  readonly limit: number;
}

/** One page of a project's unclassified messages in capture order: after the seq `after`. */
export interface UnclassifiedPageQuery {
  readonly after?: number;
  readonly limit: number;
}

const STATUSES: readonly ProposalStatus[] = ['pending', 'committed', 'rejected'];

/** Where a page starts and ends in a list's order: a key column, its cursors and direction. */
interface PageKey {
  /** The column a page is ordered by, the last of each index range it reads. */
  readonly column: string;
  readonly after?: string | number;
  readonly before?: string | number;
  readonly order: 'ASC' | 'DESC';
}

/**
 * The SQL of one page of a table whose rows have a `holder` (the principal a personal row belongs
 * to, null when the project reads it), in the order of `key`, for `viewer` (a principal id, or null
 * for the operator's view of everything); `$1` is the project. Each holder the viewer may read (the
 * project's and its own) and each of `statuses` (undefined: any) is a range of an index, read to at
 * most `limit` rows, and the page is the first `limit` of their union: rows another principal holds,
 * or of another status, are never visited, however many lie between the ones a page shows.
 * `statuses(anyHolder)` gives the statuses of the ranges; with a holder fixed, an index range in
 * key order needs a status fixed too, where the table's index has one. `mark`, a fixed condition,
 * is added to each range: the one a partial index is made for; `within`, a column's value, too:
 * the row a list is of (an object, for its versions), the index's column after the project.
 */
function pageSql(
  table: string,
  key: PageKey,
  limitOf: number,
  viewer: string | null,
  statuses: (anyHolder: boolean) => readonly (string | undefined)[],
  mark?: string,
  within?: { readonly column: string; readonly value: string },
): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [];
  const bind = (value: string | number) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  const { column, order } = key;
  const limit = bind(limitOf);
  const after = key.after === undefined ? undefined : bind(key.after);
  const before = key.before === undefined ? undefined : bind(key.before);
  const you = viewer === null ? undefined : bind(viewer);
  const scope = within === undefined ? undefined : `${within.column} = ${bind(within.value)}`;
  const holders = you === undefined ? [undefined] : ['holder IS NULL', `holder = ${you}`];
  const ranges: string[] = [];
  for (const holder of holders) {
    for (const status of statuses(holder === undefined)) {
      const where = ['project = $1'];
      if (scope !== undefined) where.push(scope);
      if (mark !== undefined) where.push(mark);
      if (holder !== undefined) where.push(holder);
      if (status !== undefined) where.push(`status = ${bind(status)}`);
      if (after !== undefined) where.push(`${column} > ${after}`);
      if (before !== undefined) where.push(`${column} < ${before}`);
      ranges.push(
        `SELECT ${column}, record FROM ${table} WHERE ${where.join(' AND ')} ORDER BY ${column} ${order} LIMIT ${limit}`,
      );
    }
  }
  const [only] = ranges;
  if (ranges.length === 1 && only !== undefined) return { sql: only, params };
  const union = ranges.map((r, i) => `SELECT * FROM (${r}) AS r${i}`).join(' UNION ALL ');
  return {
    sql: `SELECT ${column}, record FROM (${union}) AS page ORDER BY ${column} ${order} LIMIT ${limit}`,
    params,
  };
}

/** A page in journal order ({@link PageQuery}) as a {@link PageKey} on `seq`. */
function seqKey(q: PageQuery): PageKey {
  return {
    column: 'seq',
    order: q.order === 'newest' ? 'DESC' : 'ASC',
    ...(q.after === undefined ? {} : { after: q.after }),
    ...(q.before === undefined ? {} : { before: q.before }),
  };
}

/**
 * A page of proposals ({@link pageSql}) from `canon_proposals_holder (project, holder, status,
 * seq)`, or for the operator `canon_proposals_status` / `canon_proposals_seq`: at most 6 ranges.
 */
export function proposalPageSql(q: ProposalPageQuery, viewer: string | null) {
  return pageSql('canon_proposals', seqKey(q), q.limit, viewer, (anyHolder) => {
    if (q.status === 'decided') return STATUSES.filter((s) => s !== 'pending');
    if (q.status !== undefined) return [q.status];
    return anyHolder ? [undefined] : STATUSES;
  });
}

/**
 * A page of archived messages ({@link pageSql}) from `canon_messages_holder (project, holder, seq)`,
 * or for the operator `canon_messages_seq`: at most 2 ranges.
 */
export function messagePageSql(q: PageQuery, viewer: string | null) {
  return pageSql('canon_messages', seqKey(q), q.limit, viewer, () => [undefined]);
}

/**
 * A page of objects ({@link pageSql}) in id order from `canon_objects_holder (project, holder,
 * status, object_id)`, or for the operator `canon_objects_status` / the primary key: at most 10
 * ranges (each status, for the project's and the viewer's own).
 */
export function objectPageSql(q: ObjectPageQuery, viewer: string | null) {
  const key: PageKey = {
    column: 'object_id',
    order: 'ASC',
    ...(q.after === undefined ? {} : { after: q.after }),
  };
  const wanted =
    q.statuses === undefined ? undefined : OBJECT_STATUSES.filter((s) => q.statuses?.includes(s));
  return pageSql(
    'canon_objects',
    key,
    q.limit,
    viewer,
    (anyHolder) => wanted ?? (anyHolder ? [undefined] : OBJECT_STATUSES),
  );
}

/**
 * A page of artifacts ({@link pageSql}) in id order from `canon_artifacts_holder (project, holder,
 * artifact_id)`, or for the operator the primary key: at most 2 ranges.
 */
export function artifactPageSql(q: ArtifactPageQuery, viewer: string | null) {
  const key: PageKey = {
    column: 'artifact_id',
    order: 'ASC',
    ...(q.after === undefined ? {} : { after: q.after }),
  };
  return pageSql('canon_artifacts', key, q.limit, viewer, () => [undefined]);
}

/**
 * A page of unclassified messages ({@link pageSql}) in capture order from the partial index
 * `canon_messages_unclassified_holder (project, holder, seq)`, or for the operator
 * `canon_messages_unclassified (project, seq)`: at most 2 ranges, holding only messages marked
 * unclassified, so the project's classified ones are never visited.
 */
export function unclassifiedPageSql(q: UnclassifiedPageQuery, viewer: string | null) {
  const key: PageKey = {
    column: 'seq',
    order: 'ASC',
    ...(q.after === undefined ? {} : { after: q.after }),
  };
  return pageSql('canon_messages', key, q.limit, viewer, () => [undefined], 'unclassified = 1');
}

/**
 * A page of an object's versions ({@link pageSql}) in version order from `canon_versions_holder
 * (project, object_id, holder, version_id)`, or for the operator the primary key: at most 2 ranges,
 * so another principal's personal versions of the object are never visited. `after` and `before`
 * are version numbers.
 */
export function versionPageSql(objectId: string, q: PageQuery, viewer: string | null) {
  const key: PageKey = {
    column: 'version_id',
    order: q.order === 'newest' ? 'DESC' : 'ASC',
    ...(q.after === undefined ? {} : { after: q.after }),
    ...(q.before === undefined ? {} : { before: q.before }),
  };
  return pageSql('canon_versions', key, q.limit, viewer, () => [undefined], undefined, {
    column: 'object_id',
    value: objectId,
  });
}
