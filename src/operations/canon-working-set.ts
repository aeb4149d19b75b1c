import { workingSet } from '../canon/index.js';
import { workingSetRequest } from './input.js';
import type { Operation } from './operation.js';
import { BODIES, ref } from './schemas.js';

/** Working sets (§8, §9): what a model reads instead of the transcript. */
export const WORKING_SET_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    url: '/v1/projects/:project/working-set',
    operationId: 'compileWorkingSet',
    summary:
      'Compile a scoped working set from the current canon the principal may read (nothing superseded, nothing out of effect) with its prompt capsule and token count; writes nothing',
    tag: 'working-set',
    cli: {
      command: 'working-set',
      description: 'the working set a model reads instead of the transcript (prints its capsule)',
      flags: { object_id: '--object <object_id>' },
    },
    minRole: 'viewer',
    body: {
      schema: BODIES.workingSet,
      required: false,
      example: { objective: 'Build the settings page in the current visual identity' },
    },
    status: 200,
    response: ref('WorkingSet'),
    errors: ['INVALID_BODY', 'INVALID_ARGUMENT', 'UNKNOWN_OBJECT'],
    handler: async ({ runtime, principal, body }) =>
      workingSet(runtime.canon, principal, workingSetRequest(body)),
  },
];
