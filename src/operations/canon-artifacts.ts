import { artifactStatusPage, registerArtifact, reviewArtifact } from '../canon/index.js';
import { objectIdArg, refuseClaims, reviewRequest } from './input.js';
import type { Operation } from './operation.js';
import { ARTIFACT_LIST_QUERY, artifactListQuery } from './page-query.js';
import { BODIES, EXAMPLE_HASH, RESPONSES, ref } from './schemas.js';
import { artifactView } from './views.js';

const { list } = RESPONSES;

/** Artifacts (§10): manifests of what was built from which canonical versions, and their staleness. */
export const ARTIFACT_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    url: '/v1/projects/:project/artifacts',
    operationId: 'registerArtifact',
    summary:
      'Register an artifact manifest (re-registering makes a new artifact_version); an agent may not accept one',
    tag: 'artifacts',
    cli: {
      command: 'artifact register',
      description: 'register an artifact manifest (from --file or flags)',
    },
    minRole: 'agent',
    body: {
      schema: BODIES.artifact,
      required: true,
      invalid: 'INVALID_ARTIFACT',
      example: {
        artifact_id: 'settings-screen',
        title: 'Settings screen',
        canonical_note_versions: [{ object_id: 'ui.colour', version_hash: EXAMPLE_HASH }],
        tool_or_model_refs: ['coding-agent'],
        output_digest: EXAMPLE_HASH,
      },
    },
    status: 201,
    response: ref('ArtifactStatus'),
    errors: [
      'INVALID_ARTIFACT',
      'INVALID_PROPOSAL',
      'AUTHORITY_FROM_PAYLOAD',
      'UNKNOWN_VERSION',
      'FORBIDDEN',
      'CONFLICT',
    ],
    handler: async ({ runtime, principal, body }) => {
      // artifactInput reports claimed authority only as an unknown field; say what it is.
      refuseClaims(body);
      const manifest = await registerArtifact(runtime.canon, principal, body);
      return artifactView(runtime, principal, manifest.artifact_id);
    },
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/artifacts',
    operationId: 'listArtifacts',
    summary:
      "The artifacts the principal may read (§14: one citing a personal version is its holder's) in id order, a page at a time, each with its §10 state",
    tag: 'artifacts',
    cli: {
      command: 'artifacts',
      description:
        'artifacts with their §10 states, a page at a time (--limit, default 100; --after an artifact id)',
    },
    minRole: 'viewer',
    query: ARTIFACT_LIST_QUERY,
    status: 200,
    response: list('artifacts', 'ArtifactStatus'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) => ({
      artifacts: await artifactStatusPage(
        runtime.canon.readerFor(principal),
        artifactListQuery(query),
      ),
    }),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/artifacts/:id',
    operationId: 'getArtifact',
    summary: 'One artifact with its §10 state and the reasons',
    tag: 'artifacts',
    cli: {
      command: 'artifact show <artifact_id>',
      description: 'one artifact and its state',
    },
    minRole: 'viewer',
    params: { id: 'artifact id' },
    status: 200,
    response: ref('ArtifactStatus'),
    errors: ['UNKNOWN_ARTIFACT', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      artifactView(runtime, principal, objectIdArg(params.id, 'artifact_id')),
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/artifacts/:id/review',
    operationId: 'reviewArtifact',
    summary: "Record a person's review of an artifact (owners and editors)",
    tag: 'artifacts',
    cli: {
      command: 'artifact review <artifact_id>',
      description: 'record a review (owners and editors)',
      flags: { acceptance_state: '--acceptance <state>' },
    },
    mcp: { minRole: 'editor' },
    minRole: 'agent',
    params: { id: 'artifact id' },
    body: { schema: BODIES.review, required: true, example: { acceptance_state: 'rejected' } },
    status: 200,
    response: ref('ArtifactStatus'),
    errors: ['FORBIDDEN', 'UNKNOWN_ARTIFACT', 'INVALID_ARTIFACT', 'INVALID_BODY', 'CONFLICT'],
    handler: async ({ runtime, principal, params, body }) => {
      const id = objectIdArg(params.id, 'artifact_id');
      const { acceptance_state } = reviewRequest(body);
      await reviewArtifact(runtime.canon, principal, id, acceptance_state);
      return artifactView(runtime, principal, id);
    },
  },
];
