import type { ProposalStatus } from './records.js';

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

const STATUSES: readonly ProposalStatus[] = ['pending', 'committed', 'rejected'];

/**
 * The SQL of one page of a table whose rows have a `holder` (the principal a personal row belongs
 * to, null when the project reads it) and a journal `seq`, for `viewer` (a principal id, or null for
 * the operator's view of everything); `$1` is the project. Each holder the viewer may read (the
 * project's and its own) and each of `statuses` (undefined: any) is a range of an index, read to at
 * most `limit` rows, and the page is the first `limit` of their union: rows another principal holds,
 * or of another status, are never visited, however many lie between the ones a page shows.
 * `statuses(anyHolder)` gives the statuses of the ranges; with a holder fixed, an index range in
 * seq order needs a status fixed too, where the table's index has one.
 */
function pageSql(
  table: string,
  q: PageQuery,
  viewer: string | null,
  statuses: (anyHolder: boolean) => readonly (string | undefined)[],
): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [];
  const bind = (value: string | number) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  const order = q.order === 'newest' ? 'DESC' : 'ASC';
  const limit = bind(q.limit);
  const after = q.after === undefined ? undefined : bind(q.after);
  const before = q.before === undefined ? undefined : bind(q.before);
  const you = viewer === null ? undefined : bind(viewer);
  const holders = you === undefined ? [undefined] : ['holder IS NULL', `holder = ${you}`];
  const ranges: string[] = [];
  for (const holder of holders) {
    for (const status of statuses(holder === undefined)) {
      const where = ['project = $1'];
      if (holder !== undefined) where.push(holder);
      if (status !== undefined) where.push(`status = ${bind(status)}`);
      if (after !== undefined) where.push(`seq > ${after}`);
      if (before !== undefined) where.push(`seq < ${before}`);
      ranges.push(
        `SELECT seq, record FROM ${table} WHERE ${where.join(' AND ')} ORDER BY seq ${order} LIMIT ${limit}`,
      );
    }
  }
  const [only] = ranges;
  if (ranges.length === 1 && only !== undefined) return { sql: only, params };
  const union = ranges.map((r, i) => `SELECT * FROM (${r}) AS r${i}`).join(' UNION ALL ');
  return {
    sql: `SELECT seq, record FROM (${union}) AS page ORDER BY seq ${order} LIMIT ${limit}`,
    params,
  };
}

/**
 * A page of proposals ({@link pageSql}) from `canon_proposals_holder (project, holder, status,
 * seq)`, or for the operator `canon_proposals_status` / `canon_proposals_seq`: at most 6 ranges.
 */
export function proposalPageSql(q: ProposalPageQuery, viewer: string | null) {
  return pageSql('canon_proposals', q, viewer, (anyHolder) => {
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
  return pageSql('canon_messages', q, viewer, () => [undefined]);
}
