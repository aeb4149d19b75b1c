import { OBJECT_STATUSES } from '../canon/index.js';
import { intQuery } from './input.js';
import type { Operation } from './operation.js';
import { PAGE } from './page-query.js';
import { RESPONSES, ref } from './schemas.js';
import { BOARD_LIMIT, boardView } from './views.js';

const { obj, arr, str } = RESPONSES;

/** A group's total and whether it holds more than the board shows. */
const count = () =>
  obj({ total: { type: 'integer', minimum: 0 }, more: { type: 'boolean' } }, ['total', 'more']);

/** The board (§9): an operational view of canon, derived and disposable. */
export const BOARD_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: '/v1/projects/:project/board',
    operationId: 'getBoard',
    summary:
      'The first objects of each status the principal may read (id order), marked in or out of effect (§2), the first pending proposals and the first artifacts with their §10 states, each group with its total and whether more exist (read on with listObjects, listProposals, listArtifacts)',
    tag: 'board',
    cli: {
      command: 'board',
      description: `objects by status, pending proposals, artifacts: the first of each with its total (--limit, default ${BOARD_LIMIT})`,
    },
    minRole: 'viewer',
    query: [
      {
        name: 'limit',
        description: `at most this many of each group (1–${PAGE.max}, default ${BOARD_LIMIT})`,
        schema: { type: 'integer', minimum: 1, maximum: PAGE.max },
      },
    ],
    status: 200,
    response: obj(
      {
        project: str(),
        limit: { type: 'integer', minimum: 1 },
        objects: obj(Object.fromEntries(OBJECT_STATUSES.map((s) => [s, arr(ref('BoardObject'))])), [
          ...OBJECT_STATUSES,
        ]),
        pending: arr(ref('ProposalRecord')),
        artifacts: arr(ref('ArtifactStatus')),
        counts: obj(
          {
            objects: obj(Object.fromEntries(OBJECT_STATUSES.map((s) => [s, count()])), [
              ...OBJECT_STATUSES,
            ]),
            pending: count(),
            artifacts: count(),
          },
          ['objects', 'pending', 'artifacts'],
        ),
      },
      ['project', 'limit', 'objects', 'pending', 'artifacts', 'counts'],
    ),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) =>
      boardView(runtime, principal, intQuery(query.limit, 'limit', 1, PAGE.max, BOARD_LIMIT)),
  },
];
