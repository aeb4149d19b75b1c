import type { ProposalStatus } from './records.js';

/** What a page of proposals may be filtered by: one status, or `decided` (committed or rejected). */
export type ProposalFilter = ProposalStatus | 'decided';

/**
 * One page of a project's proposals: those journaled after `after` and before `before` (journal
 * seqs, both exclusive), oldest or newest first, at most `limit`.
 */
export interface ProposalPageQuery {
  readonly status?: ProposalFilter;
  readonly after?: number;
  readonly before?: number;
  readonly order?: 'oldest' | 'newest';
  readonly limit: number;
}

const STATUSES: readonly ProposalStatus[] = ['pending', 'committed', 'rejected'];

/** The statuses a page reads, each a range of its own; undefined for any status in one range. */
function statusesOf(filter: ProposalFilter | undefined, oneRange: boolean) {
  if (filter === 'decided') return STATUSES.filter((s) => s !== 'pending');
  if (filter !== undefined) return [filter];
  return oneRange ? [undefined] : STATUSES;
}

/**
 * The SQL of one page for `viewer` (a principal id, or null for the operator's view of everything);
 * `$1` is the project. Each holder the viewer may read (shared, `holder IS NULL`, and its own
 * personal proposals) and each status the page asks for is a range of an index, read to at most
 * `limit` rows, and the page is the first `limit` of their union. Rows another principal holds, or
 * of another status, are never visited: a page reads at most 6 × `limit` rows however many lie
 * between the ones it shows.
 */
export function proposalPageSql(
  q: ProposalPageQuery,
  viewer: string | null,
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
    for (const status of statusesOf(q.status, holder === undefined)) {
      const where = ['project = $1'];
      if (holder !== undefined) where.push(holder);
      if (status !== undefined) where.push(`status = ${bind(status)}`);
      if (after !== undefined) where.push(`seq > ${after}`);
      if (before !== undefined) where.push(`seq < ${before}`);
      ranges.push(
        `SELECT seq, record FROM canon_proposals WHERE ${where.join(' AND ')} ORDER BY seq ${order} LIMIT ${limit}`,
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
