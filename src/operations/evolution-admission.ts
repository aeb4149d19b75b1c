import { KERNEL_AUDIT_PROJECT, promotionsOf, REGISTRY_PROJECT } from '../app/index.js';
import { CanonryError, isProjectName } from '../core/index.js';
import type { Admission } from '../evolution/index.js';
import { who } from './evolution-promotion.js';
import type { Operation } from './operation.js';
import { ADMISSION_LIST_QUERY, admissionListQuery } from './page-query.js';
import { RESPONSES } from './schemas.js';

/**
 * Admissions (`src/evolution`, "Admissions"): a promotion reaches another project than its own only
 * while that project's owner admits promotions of its project. Viewers list them; the owner admits
 * and withdraws, each an `evolution.admission` entry in this project's journal.
 */

const { obj, arr } = RESPONSES;

/**
 * The admitted project: any project name — one not made yet may be admitted ahead of it — but not
 * the kernel's reserved projects, where canon never runs and so no promotion is ever made.
 */
function fromArg(value: string | undefined): string {
  if (!isProjectName(value)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'the admitted project is 1-64 of a-z 0-9 _ -, starting with a-z or 0-9',
      { field: 'from' },
    );
  }
  if (value === KERNEL_AUDIT_PROJECT || value === REGISTRY_PROJECT) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${value} is reserved for the kernel's own journal: no promotion is made there to admit`,
      { field: 'from' },
    );
  }
  return value;
}

const ADMISSION = obj(
  {
    from_project: { type: 'string' },
    admitted: { type: 'boolean' },
    seq: { type: 'integer', description: 'the entry that set it (0: never set) in this journal' },
  },
  ['from_project', 'admitted', 'seq'],
);

const URL = '/v1/projects/:project/evolution/admissions';
const PARAM = { from: 'the project whose promotions are admitted' };

const view = (a: Admission) => ({ from_project: a.from_project, admitted: a.admitted, seq: a.seq });

/** Admitting or withdrawing: the owner's call, journaled in this project. */
function ownerCall(o: {
  readonly method: 'PUT' | 'DELETE';
  readonly operationId: string;
  readonly summary: string;
  readonly command: string;
  readonly description: string;
  readonly admitted: boolean;
}): Operation {
  return {
    method: o.method,
    url: `${URL}/:from`,
    operationId: o.operationId,
    summary: o.summary,
    tag: 'evolution',
    cli: { command: o.command, description: o.description },
    minRole: 'owner',
    mcp: { minRole: 'owner' },
    params: PARAM,
    status: 200,
    response: ADMISSION,
    errors: ['INVALID_ARGUMENT', 'INVALID_PROJECT', 'FORBIDDEN', 'CONFLICT'],
    handler: async ({ runtime, project, principal, params }) =>
      view(
        await promotionsOf(runtime).admit(
          project,
          who(principal),
          fromArg(params.from),
          o.admitted,
        ),
      ),
  };
}

export const ADMISSION_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: URL,
    operationId: 'listAdmissions',
    summary:
      'The projects whose promotions may reach this one (admitted) or no longer may (withdrawn), by name, a page at a time',
    tag: 'evolution',
    cli: {
      command: 'admissions',
      description:
        'projects whose promotions this one admits, a page at a time (--limit, default 100; --after a project)',
    },
    minRole: 'viewer',
    query: ADMISSION_LIST_QUERY,
    status: 200,
    response: obj({ admissions: arr(ADMISSION) }, ['admissions']),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, project, query }) => ({
      admissions: (
        await promotionsOf(runtime).admissionPage(project, admissionListQuery(query))
      ).map(view),
    }),
  },
  ownerCall({
    method: 'PUT',
    operationId: 'admitPromotions',
    summary:
      "Admit promotions of another project into this one: from now on a canary (and what it promotes) that names this project reaches its new sessions and proposals (the owner's call)",
    command: 'admission-grant <from>',
    description: "admit another project's promotions into this one (owners)",
    admitted: true,
  }),
  ownerCall({
    method: 'DELETE',
    operationId: 'withdrawAdmission',
    summary:
      "Withdraw the admission: that project's promotions no longer reach new sessions or proposals here (sessions already started keep their arm; the owner's call)",
    command: 'admission-withdraw <from>',
    description: "withdraw another project's admission (owners)",
    admitted: false,
  }),
];
