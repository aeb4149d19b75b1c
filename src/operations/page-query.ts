import { TOKEN_ID, type TokenPageQuery } from '../auth/index.js';
import {
  type ArtifactPageQuery,
  OBJECT_STATUSES,
  type ObjectPageQuery,
  type ObjectStatus,
  type PageQuery,
  type ProposalFilter,
  type ProposalPageQuery,
  type UnclassifiedPageQuery,
} from '../canon/index.js';
import { CanonryError, isProjectName } from '../core/index.js';
import type { AdmissionPageQuery } from '../evolution/index.js';
import { intQuery, objectIdArg, oneOfQuery, PROPOSAL_STATUSES } from './input.js';
import type { QueryDoc } from './operation.js';

/** A page of a list holds this many unless asked for fewer or more, and never more than the max. */
export const PAGE = { default: 100, max: 1_000 } as const;

const FILTERS: readonly ProposalFilter[] = [...PROPOSAL_STATUSES, 'decided'];
const ORDERS = ['oldest', 'newest'] as const;
const SEQ_MAX = Number.MAX_SAFE_INTEGER;

/** The size of a page: the one query parameter every paged list has. */
const LIMIT_QUERY: QueryDoc = {
  name: 'limit',
  description: `at most this many (1–${PAGE.max}, default ${PAGE.default})`,
  schema: { type: 'integer', minimum: 1, maximum: PAGE.max },
};

/** A page's `limit` from `query`: absent is the default; out of its range, INVALID_ARGUMENT. */
export function limitQuery(query: Readonly<Record<string, string>>): number {
  return intQuery(query.limit, 'limit', 1, PAGE.max, PAGE.default);
}

/**
 * The query of a list read a page at a time by a numbered cursor (`cursor` names its unit, `first`
 * says what oldest first is): cursors, order and page size.
 */
function numberedPageQuery(cursor: string, first: string): readonly QueryDoc[] {
  return [
    {
      name: 'after',
      description: `only those after this ${cursor} (the next page, oldest first)`,
      schema: { type: 'integer', minimum: 0 },
    },
    {
      name: 'before',
      description: `only those before this ${cursor} (the next page, newest first)`,
      schema: { type: 'integer', minimum: 1 },
    },
    {
      name: 'order',
      description: `oldest first (${first}) or newest first`,
      schema: { enum: [...ORDERS] },
    },
    LIMIT_QUERY,
  ];
}

/** The query of a list read a page at a time in journal order: cursors, order and page size. */
export const PAGE_QUERY = numberedPageQuery('journal seq', 'journal order, the default');

/** The query of `listVersions`: {@link PAGE_QUERY} with version numbers for cursors. */
export const VERSION_LIST_QUERY = numberedPageQuery('version number', 'the default');

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
    limit: limitQuery(query),
  };
}

/** The query of `listUnclassified`: a page in capture order (after a journal seq). */
export const UNCLASSIFIED_LIST_QUERY: readonly QueryDoc[] = [
  {
    name: 'after',
    description: 'only those captured after this journal seq (the next page)',
    schema: { type: 'integer', minimum: 0 },
  },
  LIMIT_QUERY,
];

/** The page of unclassified messages `query` asks for; out of its range, INVALID_ARGUMENT naming it. */
export function unclassifiedListQuery(
  query: Readonly<Record<string, string>>,
): UnclassifiedPageQuery {
  return {
    ...(query.after === undefined ? {} : { after: intQuery(query.after, 'after', 0, SEQ_MAX, 0) }),
    limit: limitQuery(query),
  };
}

/** The page of proposals `query` asks for, with its status. */
export function proposalListQuery(query: Readonly<Record<string, string>>): ProposalPageQuery {
  const status = oneOfQuery(query.status, FILTERS, 'status');
  return { ...(status === undefined ? {} : { status }), ...pageQuery(query) };
}

/** The query of `listObjects`: statuses, then a page in id order (after an id). */
export const OBJECT_LIST_QUERY: readonly QueryDoc[] = [
  {
    name: 'status',
    description: `comma-separated statuses (${OBJECT_STATUSES.join(', ')})`,
    schema: { type: 'string' },
  },
  {
    name: 'after',
    description: 'only those whose id sorts after this one, in byte order (the next page)',
    schema: { type: 'string', maxLength: 100 },
  },
  LIMIT_QUERY,
];

/** `?status=active,provisional` → the listed statuses. */
function statuses(value: string | undefined): ObjectStatus[] | undefined {
  if (value === undefined) return undefined;
  const wanted = value.split(',');
  const bad = wanted.find((s) => !OBJECT_STATUSES.includes(s as ObjectStatus));
  if (bad !== undefined) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `status must be a comma-separated list of ${OBJECT_STATUSES.join(', ')}`,
      { field: 'status' },
    );
  }
  return wanted as ObjectStatus[];
}

/** The page of objects `query` asks for; a value out of its range is INVALID_ARGUMENT naming it. */
export function objectListQuery(query: Readonly<Record<string, string>>): ObjectPageQuery {
  const wanted = statuses(query.status);
  return {
    ...(wanted === undefined ? {} : { statuses: wanted }),
    ...(query.after === undefined ? {} : { after: objectIdArg(query.after, 'after') }),
    limit: limitQuery(query),
  };
}

/** The query of `listArtifacts`: a page in id order (after an id). */
export const ARTIFACT_LIST_QUERY: readonly QueryDoc[] = [
  {
    name: 'after',
    description: 'only those whose id sorts after this one, in byte order (the next page)',
    schema: { type: 'string', maxLength: 100 },
  },
  LIMIT_QUERY,
];

/** The page of artifacts `query` asks for; a value out of its range is INVALID_ARGUMENT naming it. */
export function artifactListQuery(query: Readonly<Record<string, string>>): ArtifactPageQuery {
  return {
    ...(query.after === undefined ? {} : { after: objectIdArg(query.after, 'after') }),
    limit: limitQuery(query),
  };
}

/** The query of `listTokens`: a page in creation order (after a token id). */
export const TOKEN_LIST_QUERY: readonly QueryDoc[] = [
  {
    name: 'after',
    description: 'only those made after this token (its id; the next page)',
    schema: { type: 'string', pattern: TOKEN_ID.source },
  },
  LIMIT_QUERY,
];

/** The page of tokens `query` asks for; a value out of its range is INVALID_ARGUMENT naming it. */
export function tokenListQuery(query: Readonly<Record<string, string>>): TokenPageQuery {
  if (query.after !== undefined && !TOKEN_ID.test(query.after)) {
    throw new CanonryError('INVALID_ARGUMENT', 'after must be a token id: tok_ and 12 hex digits', {
      field: 'after',
    });
  }
  return {
    ...(query.after === undefined ? {} : { after: query.after }),
    limit: limitQuery(query),
  };
}

/** The query of `listAdmissions`: a page by the project each names (after a project name). */
export const ADMISSION_LIST_QUERY: readonly QueryDoc[] = [
  {
    name: 'after',
    description:
      'only those naming a project that sorts after this one, in byte order (the next page)',
    schema: { type: 'string', maxLength: 64 },
  },
  LIMIT_QUERY,
];

/** The page of admissions `query` asks for; a value out of its range is INVALID_ARGUMENT naming it. */
export function admissionListQuery(query: Readonly<Record<string, string>>): AdmissionPageQuery {
  if (query.after !== undefined && !isProjectName(query.after)) {
    throw new CanonryError('INVALID_ARGUMENT', 'after must be a project name', { field: 'after' });
  }
  return {
    ...(query.after === undefined ? {} : { after: query.after }),
    limit: limitQuery(query),
  };
}
