import { OBJECT_STATUSES } from '../canon/index.js';
import type { Operation } from './operation.js';
import { RESPONSES, ref } from './schemas.js';
import { boardView } from './views.js';

const { obj, arr, str } = RESPONSES;

/** The board (§9): an operational view of canon, derived and disposable. */
export const BOARD_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: '/v1/projects/:project/board',
    operationId: 'getBoard',
    summary:
      'Objects the principal may read, grouped by status and marked in or out of effect (§2), pending proposals, and artifacts with their §10 states',
    tag: 'board',
    cli: {
      command: 'board',
      description: 'objects by status, pending proposals, artifacts',
    },
    minRole: 'viewer',
    status: 200,
    response: obj(
      {
        project: str(),
        objects: obj(Object.fromEntries(OBJECT_STATUSES.map((s) => [s, arr(ref('BoardObject'))])), [
          ...OBJECT_STATUSES,
        ]),
        pending: arr(ref('ProposalRecord')),
        artifacts: arr(ref('ArtifactStatus')),
      },
      ['project', 'objects', 'pending', 'artifacts'],
    ),
    errors: [],
    handler: async ({ runtime, principal }) => boardView(runtime, principal),
  },
];
