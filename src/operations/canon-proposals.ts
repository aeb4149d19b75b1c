import { OBJECT_ID, proposalInput } from '../canon/index.js';
import { CanonryError } from '../core/index.js';
import { approveRequest, instantInput, proposalIdArg, rejectRequest } from './input.js';
import type { Operation } from './operation.js';
import { PROPOSAL_LIST_QUERY, proposalListQuery } from './page-query.js';
import { BODIES, RESPONSES, ref } from './schemas.js';
import { proposalView } from './views.js';

const { obj, list } = RESPONSES;

/** Proposals (§5, §6): submitted, compared, gated, and approved or rejected by people. */
export const PROPOSAL_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    url: '/v1/projects/:project/proposals',
    operationId: 'postProposal',
    summary:
      'Propose a mutation: it is compared with current canon, gated, and committed when the gate answers AUTO_COMMIT',
    tag: 'proposals',
    cli: {
      command: 'propose',
      description:
        'propose a mutation (a ProposalInput, from --file or flags); candidate.dependency_refs lists ids (pinned to their current version) or { object_id, version_hash }',
    },
    minRole: 'agent',
    body: {
      schema: BODIES.proposal,
      required: true,
      invalid: 'INVALID_PROPOSAL',
      example: {
        object_id: 'ui.colour',
        intent: 'create',
        base_version: null,
        candidate: {
          object_type: 'preference',
          title: 'Interface colour',
          text: 'The interface is red.',
        },
      },
    },
    status: 201,
    response: ref('ProposalOutcome'),
    errors: [
      'INVALID_PROPOSAL',
      'AUTHORITY_FROM_PAYLOAD',
      'GATE_REFUSED',
      'CONFLICT',
      'SOURCE_MISSING',
      'UNKNOWN_OBJECT',
      'UNKNOWN_VERSION',
      'UNKNOWN_MESSAGE',
      'UNKNOWN_CLAIM',
      'PLANE_VIOLATION',
      'DEPENDENCY_CYCLE',
    ],
    handler: async ({ runtime, principal, body }) => {
      // A candidate that leaves out its visibility keeps the object's: leaving a field out never
      // moves a personal note to the project (§14).
      const id = (body as { object_id?: unknown } | null)?.object_id;
      const existing =
        typeof id === 'string' && OBJECT_ID.test(id)
          ? await runtime.canon.readerFor(principal).object(id)
          : null;
      const input = proposalInput(body, existing ? { visibility: existing.visibility } : {});
      if (
        input.message_id &&
        !(await runtime.canon.readerFor(principal).message(input.message_id))
      ) {
        throw new CanonryError('UNKNOWN_MESSAGE', `no message ${input.message_id}`, {
          field: 'message_id',
        });
      }
      return runtime.canon.propose(principal, input);
    },
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/proposals',
    operationId: 'listProposals',
    summary:
      'Proposals in journal order (or newest first), a page at a time, optionally only those with one status',
    tag: 'proposals',
    cli: {
      command: 'proposals',
      description:
        'list proposals a page at a time (--limit, default 100; --after or, with --order newest, --before a seq)',
    },
    minRole: 'viewer',
    query: PROPOSAL_LIST_QUERY,
    status: 200,
    response: list('proposals', 'ProposalRecord'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) => ({
      proposals: await runtime.canon.readerFor(principal).proposalPage(proposalListQuery(query)),
    }),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/proposals/:id',
    operationId: 'getProposal',
    summary:
      "The two-note view: current vs candidate, the computed checks, and the gate verdict with its signed event, checked against this server's root and revocation list, its issuer valid now or at `at`",
    tag: 'proposals',
    cli: {
      command: 'proposal <proposal_id>',
      description: 'the two-note view of a proposal',
    },
    minRole: 'viewer',
    params: { id: 'proposal id' },
    query: [
      {
        name: 'at',
        description:
          "judge the gate event's issuer and root at this instant (RFC 3339 with an offset) instead of now; without it, a verdict whose issuer expired after the proposal was recorded is ISSUER_EXPIRED with valid_at, the instant to ask with",
        schema: { type: 'string' },
      },
    ],
    status: 200,
    response: ref('ProposalView'),
    errors: ['UNKNOWN_PROPOSAL', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params, query }) => {
      const at = instantInput(query.at, 'at', 'INVALID_ARGUMENT');
      return proposalView(runtime, principal, proposalIdArg(params.id), at);
    },
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/proposals/:id/approve',
    operationId: 'approveProposal',
    summary:
      'Approve a pending proposal (the role the gate asked for: editor for REQUIRE_CONFIRMATION, owner for HARD_STOP); stale → 409 STALE_APPROVAL and a new comparison, after which only an approval naming the new head as base_version commits (else 409 BASE_NOT_ACKNOWLEDGED)',
    tag: 'proposals',
    cli: {
      command: 'approve <proposal_id>',
      description: 'approve a pending proposal',
      flags: { base_version: '--base <hash>' },
    },
    mcp: { minRole: 'editor' },
    minRole: 'agent',
    params: { id: 'proposal id' },
    body: {
      schema: BODIES.approve,
      required: false,
      example: { base_version: `sha256:${'0'.repeat(64)}` },
    },
    status: 200,
    response: ref('ProposalOutcome'),
    errors: [
      'FORBIDDEN',
      'STALE_APPROVAL',
      'BASE_NOT_ACKNOWLEDGED',
      'PROPOSAL_CLOSED',
      'UNKNOWN_PROPOSAL',
      'CONFLICT',
      'INVALID_BODY',
      'AUTHORITY_FROM_PAYLOAD',
    ],
    handler: async ({ runtime, principal, params, body }) => {
      const id = proposalIdArg(params.id);
      return runtime.canon.approve(principal, id, approveRequest(body));
    },
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/proposals/:id/reject',
    operationId: 'rejectProposal',
    summary: 'Reject a pending proposal (owner, editor, or its proposer withdrawing it)',
    tag: 'proposals',
    cli: {
      command: 'reject <proposal_id>',
      description: 'reject (or, as its proposer, withdraw) a pending proposal',
    },
    minRole: 'agent',
    params: { id: 'proposal id' },
    body: { schema: BODIES.reject, required: true, example: { reason: 'not what we want' } },
    status: 200,
    response: obj({ proposal: ref('ProposalRecord') }, ['proposal']),
    errors: [
      'FORBIDDEN',
      'PROPOSAL_CLOSED',
      'UNKNOWN_PROPOSAL',
      'INVALID_BODY',
      'AUTHORITY_FROM_PAYLOAD',
    ],
    handler: async ({ runtime, principal, params, body }) => {
      const id = proposalIdArg(params.id);
      const { reason } = rejectRequest(body);
      return { proposal: await runtime.canon.reject(principal, id, reason) };
    },
  },
];
