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

/**
 * The SQL of one batch of a page: `$1` is the project; the batch starts past `cursor` (a seq, in the
 * page's order) and holds at most `size` rows.
 */
export function proposalBatchSql(
  q: ProposalPageQuery,
  cursor: { after?: number; before?: number },
  size: number,
): { sql: string; params: (string | number)[] } {
  const params: (string | number)[] = [];
  const where = ['project = $1'];
  const bind = (value: string | number) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  if (q.status === 'decided') where.push(`status <> 'pending'`);
  else if (q.status !== undefined) where.push(`status = ${bind(q.status)}`);
  if (cursor.after !== undefined) where.push(`seq > ${bind(cursor.after)}`);
  if (cursor.before !== undefined) where.push(`seq < ${bind(cursor.before)}`);
  const order = q.order === 'newest' ? 'DESC' : 'ASC';
  return {
    sql: `SELECT record FROM canon_proposals WHERE ${where.join(' AND ')} ORDER BY seq ${order} LIMIT ${bind(size)}`,
    params,
  };
}
