import type { PageQuery, ProposalFilter, ProposalPageQuery } from '../canon/index.js';
import { intQuery, oneOfQuery, PROPOSAL_STATUSES } from './input.js';
import type { QueryDoc } from './operation.js';

/** A page of a list holds this many unless asked for fewer or more, and never more than the max. */
export const PAGE = { default: 100, max: 1_000 } as const;

const FILTERS: readonly ProposalFilter[] = [...PROPOSAL_STATUSES, 'decided'];
const ORDERS = ['oldest', 'newest'] as const;
const SEQ_MAX = Number.MAX_SAFE_INTEGER;

/** The query of a list read a page at a time in journal order: cursors, order and page size. */
export const PAGE_QUERY: readonly QueryDoc[] = [
  {
    name: 'after',
    description: 'only those after this journal seq (the next page, oldest first)',
    schema: { type: 'integer', minimum: 0 },
  },
  {
    name: 'before',
    description: 'only those before this journal seq (the next page, newest first)',
    schema: { type: 'integer', minimum: 1 },
  },
  {
    name: 'order',
    description: 'oldest first (journal order, the default) or newest first',
    schema: { enum: [...ORDERS] },
  },
  {
    name: 'limit',
    description: `at most this many (1–${PAGE.max}, default ${PAGE.default})`,
    schema: { type: 'integer', minimum: 1, maximum: PAGE.max },
  },
];

/** The query of `listProposals`: a status, then {@link PAGE_QUERY}. */
export const PROPOSAL_LIST_QUERY: readonly QueryDoc[] = [
  {
    name: 'status',
    description: 'only proposals with this status (decided: committed or rejected)',
    schema: { enum: [...FILTERS] },
  },
  ...PAGE_QUERY,
];

/** The page `query` asks for; a value out of its range is INVALID_ARGUMENT naming it. */
export function pageQuery(query: Readonly<Record<string, string>>): PageQuery {
  const order = oneOfQuery(query.order, ORDERS, 'order');
  return {
    ...(order === undefined ? {} : { order }),
    ...(query.after === undefined ? {} : { after: intQuery(query.after, 'after', 0, SEQ_MAX, 0) }),
    ...(query.before === undefined
      ? {}
      : { before: intQuery(query.before, 'before', 1, SEQ_MAX, 0) }),
    limit: intQuery(query.limit, 'limit', 1, PAGE.max, PAGE.default),
  };
}

/** The page of proposals `query` asks for, with its status. */
export function proposalListQuery(query: Readonly<Record<string, string>>): ProposalPageQuery {
  const status = oneOfQuery(query.status, FILTERS, 'status');
  return { ...(status === undefined ? {} : { status }), ...pageQuery(query) };
}
