import { NOTE_GRAPH_MAX, noteGraph, provenance } from '../canon/index.js';
import { intQuery, objectIdArg, resolveRequest, restoreRequest, versionArg } from './input.js';
import type { Operation } from './operation.js';
import { OBJECT_LIST_QUERY, objectListQuery, pageQuery, VERSION_LIST_QUERY } from './page-query.js';
import { BODIES, EXAMPLE_HASH, RESPONSES, ref } from './schemas.js';
import { objectView, versionsView, versionView } from './views.js';

const { obj, arr, list, str, nullable } = RESPONSES;

/** The nodes a note's graph draws unless asked for more or fewer. */
export const GRAPH_LIMIT = 120;

/** Canonical objects (§2), their immutable versions (§3), provenance (§8) and restore. */
export const OBJECT_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: '/v1/projects/:project/objects',
    operationId: 'listObjects',
    summary:
      'Canonical objects in id order, a page at a time, optionally only those with the given statuses',
    tag: 'objects',
    cli: {
      command: 'objects',
      description:
        'list canonical objects a page at a time (--limit, default 100; --after an object id)',
    },
    minRole: 'viewer',
    query: OBJECT_LIST_QUERY,
    status: 200,
    response: list('objects', 'CanonObject'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) => ({
      objects: await runtime.canon.readerFor(principal).objectPage(objectListQuery(query)),
    }),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/objects/:id',
    operationId: 'getObject',
    summary: 'An object with its current version',
    tag: 'objects',
    cli: {
      command: 'object <object_id>',
      description: 'an object and its current version',
    },
    minRole: 'viewer',
    params: { id: 'object id' },
    status: 200,
    response: obj(
      {
        object: ref('CanonObject'),
        current: ref('NoteVersion'),
        versions: { type: 'integer' },
        effective: ref('EffectiveState'),
        claims: arr(ref('Claim'), {
          description: 'every claim its disputes have held (open ones while disputed)',
        }),
        dependency_state: nullable(ref('DependencyState')),
      },
      ['object', 'current', 'versions', 'effective', 'claims', 'dependency_state'],
    ),
    errors: ['UNKNOWN_OBJECT', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      objectView(runtime, principal, objectIdArg(params.id)),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/objects/:id/versions',
    operationId: 'listVersions',
    summary:
      "An object's immutable versions a page at a time, oldest first or newest first (restores append, never rewind)",
    tag: 'objects',
    cli: {
      command: 'versions <object_id>',
      description:
        'the versions of an object a page at a time (--order newest, --limit, --after or --before a version number)',
    },
    minRole: 'viewer',
    params: { id: 'object id' },
    query: VERSION_LIST_QUERY,
    status: 200,
    response: obj(
      { object_id: str(), current_version_ref: RESPONSES.hash, versions: arr(ref('NoteVersion')) },
      ['object_id', 'current_version_ref', 'versions'],
    ),
    errors: ['UNKNOWN_OBJECT', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params, query }) =>
      versionsView(runtime, principal, objectIdArg(params.id), pageQuery(query)),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/objects/:id/versions/:version',
    operationId: 'getVersion',
    summary:
      "One immutable version of an object, by its number or its hash, with the object's current version hash",
    tag: 'objects',
    cli: {
      command: 'version <object_id> <version>',
      description: 'one version of an object, by number or by hash',
    },
    minRole: 'viewer',
    params: { id: 'object id', version: 'version number (from 1) or version hash (sha256:…)' },
    status: 200,
    response: obj(
      { object_id: str(), current_version_ref: RESPONSES.hash, version: ref('NoteVersion') },
      ['object_id', 'current_version_ref', 'version'],
    ),
    errors: ['UNKNOWN_OBJECT', 'UNKNOWN_VERSION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      versionView(runtime, principal, objectIdArg(params.id), versionArg(params.version)),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/objects/:id/provenance',
    operationId: 'getProvenance',
    summary:
      'The provenance walk (§8): why, since when, who authorized it, sources, what it replaced, stale dependents, restorable versions',
    tag: 'objects',
    cli: {
      command: 'provenance <object_id>',
      description: 'why an object is current (LCSM §8)',
    },
    minRole: 'viewer',
    params: { id: 'object id' },
    status: 200,
    response: ref('Provenance'),
    errors: ['UNKNOWN_OBJECT', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      provenance(runtime.canon, principal, objectIdArg(params.id)),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/objects/:id/graph',
    operationId: 'getObjectGraph',
    summary:
      'The dependency graph around a note (§10): what it rests on, every live note resting on it however far down, and the artifacts built on them, each with its cascade state; at most `limit` nodes',
    tag: 'objects',
    cli: {
      command: 'graph <object_id>',
      description: `what a note rests on and what rests on it, with their states (--limit, default ${GRAPH_LIMIT})`,
    },
    minRole: 'viewer',
    params: { id: 'object id' },
    query: [
      {
        name: 'limit',
        description: `at most this many nodes (1–${NOTE_GRAPH_MAX}, default ${GRAPH_LIMIT})`,
        schema: { type: 'integer', minimum: 1, maximum: NOTE_GRAPH_MAX },
      },
    ],
    status: 200,
    response: ref('NoteGraph'),
    errors: ['UNKNOWN_OBJECT', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params, query }) =>
      noteGraph(
        runtime.canon.readerFor(principal),
        objectIdArg(params.id),
        intQuery(query.limit, 'limit', 1, NOTE_GRAPH_MAX, GRAPH_LIMIT),
      ),
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/objects/:id/restore',
    operationId: 'restoreObject',
    summary:
      'Restore an earlier version, named by its hash or its number, by proposing a new version with its content (gated like any proposal)',
    tag: 'objects',
    cli: {
      command: 'restore <object_id>',
      description: 'restore an earlier version (appends a new version; history is kept)',
      flags: { version: '--version <n|hash>' },
    },
    minRole: 'agent',
    params: { id: 'object id' },
    body: {
      schema: BODIES.restore,
      required: true,
      example: { version_hash: EXAMPLE_HASH, rationale: 'back to the first version' },
    },
    status: 201,
    response: ref('ProposalOutcome'),
    errors: [
      'UNKNOWN_OBJECT',
      'UNKNOWN_VERSION',
      'INVALID_HASH',
      'INVALID_BODY',
      'AUTHORITY_FROM_PAYLOAD',
      'GATE_REFUSED',
      'CONFLICT',
      'PLANE_VIOLATION',
      'DEPENDENCY_CYCLE',
    ],
    handler: async ({ runtime, principal, params, body }) => {
      const id = objectIdArg(params.id);
      const { version, rationale } = restoreRequest(body);
      return runtime.canon.restore(principal, id, version, rationale);
    },
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/objects/:id/resolve',
    operationId: 'resolveObject',
    summary:
      "Resolve a dispute (LCSM §15): propose the open claim that stands, with why; gated like any proposal (an agent's waits for an editor), the other claims stay in history",
    tag: 'objects',
    cli: {
      command: 'resolve <object_id>',
      description:
        'resolve a dispute: the open claim that stands, and why (gated; the other claims stay in history)',
      flags: { claim_id: '--claim <claim_id>' },
    },
    minRole: 'agent',
    params: { id: 'object id' },
    body: {
      schema: BODIES.resolve,
      required: true,
      example: {
        claim_id: 'claim_0123456789abcdef',
        rationale: 'the deploy manifest settles it',
      },
    },
    status: 201,
    response: ref('ProposalOutcome'),
    errors: [
      'UNKNOWN_OBJECT',
      'UNKNOWN_CLAIM',
      'INVALID_BODY',
      'INVALID_ARGUMENT',
      'INVALID_PROPOSAL',
      'AUTHORITY_FROM_PAYLOAD',
      'GATE_REFUSED',
      'CONFLICT',
      'PLANE_VIOLATION',
    ],
    handler: async ({ runtime, principal, params, body }) => {
      const id = objectIdArg(params.id);
      const { claim_id, rationale } = resolveRequest(body);
      return runtime.canon.resolve(principal, id, claim_id, rationale);
    },
  },
];
