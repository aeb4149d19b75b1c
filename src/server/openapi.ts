import type { FastifyInstance } from 'fastify';
import type { TokenRole } from '../auth/index.js';
import { ERROR_CODES, type ErrorCode, type JsonObject, PROJECT_NAME } from '../core/index.js';
import {
  BODIES,
  OPERATIONS,
  type Operation,
  type QueryDoc,
  RESPONSES,
  ref,
  SCHEMAS,
  VALIDATE_ERRORS,
} from '../operations/index.js';

/** Where the document is served. */
export const OPENAPI_PATH = '/openapi.json';

const { obj, arr, str, hash } = RESPONSES;

/** One route as the document needs it; operations carry theirs, the others are listed here. */
interface OperationDoc {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  /** Absent: public. */
  readonly minRole?: TokenRole;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: readonly QueryDoc[];
  /** Request headers the operation reads. */
  readonly headers?: readonly QueryDoc[];
  readonly body?: {
    readonly schema: JsonObject;
    readonly required: boolean;
    readonly example?: unknown;
  };
  readonly status: number;
  readonly response: JsonObject;
  /** The success response's media type (default `application/json`). */
  readonly mediaType?: string;
  readonly errors: readonly ErrorCode[];
  /** For `/v1/validate`, whose errors use the TCP/AP envelope instead. */
  readonly errorSchema?: JsonObject;
  /** Headers the success response may carry: name → description. */
  readonly responseHeaders?: { readonly documented: Readonly<Record<string, string>> };
}

/** The routes registered outside the operation table: public ones and the journal's. */
const OTHER_ROUTES: readonly OperationDoc[] = [
  {
    method: 'GET',
    url: '/healthz',
    operationId: 'health',
    summary:
      'Health: 200 when every chain verified on start; 503 (same body) while some chain is quarantined',
    tag: 'service',
    status: 200,
    response: obj(
      {
        ok: { type: 'boolean' },
        store: str(),
        journal: obj(
          {
            broken: arr(
              obj({ project: str(), seq: { type: 'integer' }, reason: str(), detail: str() }, [
                'project',
                'seq',
                'reason',
              ]),
            ),
            unsigned: { type: 'integer' },
          },
          ['broken', 'unsigned'],
        ),
        trust: obj({ root_fingerprint: hash, development: { type: 'boolean' } }, [
          'root_fingerprint',
          'development',
        ]),
      },
      ['ok', 'store', 'journal', 'trust'],
    ),
    errors: [],
  },
  {
    method: 'GET',
    url: '/readyz',
    operationId: 'ready',
    summary:
      "Readiness: 200 when the store answers a query; 503 STORE_UNAVAILABLE when it does not (or not within 2 s). With evolution on, whether this process's coordinator leads (holds the database's lease) or stands by",
    tag: 'service',
    status: 200,
    response: obj(
      {
        ok: { type: 'boolean' },
        store: str(),
        evolution: obj(
          {
            role: { enum: ['leading', 'standby', 'stopped'] },
            holder: { type: ['string', 'null'] },
            lease_holder: { type: ['string', 'null'] },
          },
          ['role', 'holder', 'lease_holder'],
        ),
      },
      ['ok', 'store'],
    ),
    errors: ['STORE_UNAVAILABLE'],
  },
  {
    method: 'GET',
    url: '/metrics',
    operationId: 'metrics',
    summary:
      'Prometheus metrics (text exposition format): requests, latencies, verdicts by class, journal appends, commit-queue depth',
    tag: 'service',
    status: 200,
    response: { type: 'string' },
    errors: [],
  },
  {
    method: 'GET',
    url: OPENAPI_PATH,
    operationId: 'openapi',
    summary: 'This OpenAPI 3.1 document',
    tag: 'service',
    status: 200,
    response: { type: 'object' },
    errors: [],
  },
  {
    method: 'POST',
    url: '/v1/validate',
    operationId: 'validate',
    summary:
      'TCP/AP §6: evaluate an artifact against an agentic protocol (inline or by hash); no token, rate limited per client',
    tag: 'tcp-ap',
    body: { schema: BODIES.validate, required: true },
    status: 200,
    response: ref('ValidateEnvelope'),
    errors: [...VALIDATE_ERRORS, 'RATE_LIMITED', 'EVALUATOR_UNAVAILABLE'],
    errorSchema: ref('ValidateEnvelope'),
  },
  {
    method: 'GET',
    url: '/v1/trust',
    operationId: 'trust',
    summary: 'The root and issuer certificates and the revocation list (never a private key)',
    tag: 'tcp-ap',
    status: 200,
    response: obj(
      {
        root: str(),
        root_fingerprint: hash,
        development_root: {
          type: 'boolean',
          description:
            'true for a root whose key lives on the server: not production-grade attestation (TCP/AP §10)',
        },
        issuers: arr({ type: 'object' }),
        revocation_list: str(),
      },
      ['root', 'development_root', 'issuers', 'revocation_list'],
    ),
    errors: [],
  },
  {
    method: 'POST',
    url: '/v1/protocols',
    operationId: 'registerProtocol',
    summary:
      "Register an agentic protocol by content hash for the token's project (201 new, 200 already registered); at most 256 KiB, 1,000 a project",
    tag: 'tcp-ap',
    minRole: 'editor',
    body: { schema: { type: 'object' }, required: true },
    status: 201,
    response: obj({ hash, slug: str(), version: str(), labels: arr(str()) }, ['hash']),
    errors: ['INVALID_PROTOCOL', 'QUOTA_EXCEEDED', 'CHAIN_BROKEN'],
  },
  {
    method: 'GET',
    url: '/v1/protocols/:hash',
    operationId: 'getProtocol',
    summary: 'A registered agentic protocol',
    tag: 'tcp-ap',
    params: { hash: 'the protocol content hash' },
    status: 200,
    response: obj({ hash, protocol: { type: 'object' } }, ['hash', 'protocol']),
    errors: ['INVALID_HASH', 'UNKNOWN_PROTOCOL'],
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/journal',
    operationId: 'readJournal',
    summary: "Page through a project's journal entries",
    tag: 'journal',
    minRole: 'viewer',
    query: [
      { name: 'after', description: 'entries after this seq', schema: { type: 'integer' } },
      { name: 'limit', description: '1–1000 (default 100)', schema: { type: 'integer' } },
      {
        name: 'summary',
        description:
          'true: each entry as the live feed tells it — { seq, kind, at, actor, authority, hash, prev_hash, summary } with its kind’s policy-safe summary and no body',
        schema: { type: 'boolean' },
      },
    ],
    status: 200,
    response: obj(
      {
        project: str(),
        head: { type: 'object' },
        entries: arr({
          type: 'object',
          description:
            "a journal entry (with summary=true its feed summary), or — when it is about another principal's personal note or message (LCSM §14) — { project, seq, format, prev_hash, hash, redacted: true } ({ seq, hash, prev_hash, redacted: true } with summary=true)",
        }),
        next_after: { type: ['integer', 'null'] },
      },
      ['project', 'head', 'entries', 'next_after'],
    ),
    errors: ['INVALID_ARGUMENT', 'INVALID_PROJECT'],
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/journal/verify',
    operationId: 'verifyJournal',
    summary:
      "Verify a project's hash chain and signed checkpoints against this server's root and revocation list, each checkpoint issuer's validity judged at `at` when given (a checkpoint carries no signing time: without `at` its window is not judged); with projections=true (owner) also compare its projections with a replay",
    tag: 'journal',
    minRole: 'viewer',
    query: [
      {
        name: 'projections',
        description: 'true: replay the journal and compare every projection table (owner only)',
        schema: { type: 'boolean' },
      },
      {
        name: 'at',
        description:
          "judge each checkpoint issuer's validity window at this instant (RFC 3339 with an offset); a checkpoint whose issuer is outside it breaks the chain (checkpoint-mismatch)",
        schema: { type: 'string' },
      },
    ],
    status: 200,
    response: obj(
      {
        ok: { type: 'boolean' },
        project: str(),
        checked: { type: 'integer', description: 'entries walked' },
        head: obj({ seq: { type: 'integer' }, hash: str() }, ['seq', 'hash']),
        broken: {
          oneOf: [
            obj({ seq: { type: 'integer' }, reason: str(), detail: str() }, [
              'seq',
              'reason',
              'detail',
            ]),
            { type: 'null' },
          ],
          description: 'the first seq that breaks the chain and why, or null',
        },
        checkpoints: { type: 'integer', description: 'signed checkpoints checked against it' },
        base: { type: 'integer', description: 'the last pruned seq, when a prefix was pruned' },
        unsigned: obj({ entries: { type: 'integer' }, since: { type: ['string', 'null'] } }, [
          'entries',
          'since',
        ]),
        projections: obj({ checked: arr(str()), mismatch: { type: ['string', 'null'] } }, [
          'checked',
          'mismatch',
        ]),
      },
      ['ok', 'project', 'checked', 'head', 'broken', 'checkpoints'],
    ),
    errors: ['INVALID_PROJECT', 'INVALID_ARGUMENT', 'UNKNOWN_PROJECT'],
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/journal/:seq/receipt',
    operationId: 'getReceipt',
    summary: 'The §7 receipt of one journal entry',
    tag: 'journal',
    minRole: 'viewer',
    params: { seq: 'the entry seq' },
    status: 200,
    response: ref('Receipt'),
    errors: ['NOT_FOUND', 'INVALID_ARGUMENT', 'INVALID_PROJECT'],
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/events',
    operationId: 'followEvents',
    summary:
      "The project's journal live, as server-sent events: `id:` the seq, `event:` the kind (`redacted` for an entry of another principal's personal plane), `data:` a summary — never a body; a heartbeat comment every 15 s; the kernel's audit project is never served",
    tag: 'journal',
    minRole: 'viewer',
    query: [
      {
        name: 'after',
        description: 'start after this seq (Last-Event-ID, when sent, wins)',
        schema: { type: 'integer', minimum: 0 },
      },
    ],
    headers: [
      {
        name: 'Last-Event-ID',
        description: 'resume after this seq (what an EventSource sends when it reconnects)',
        schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
      },
    ],
    status: 200,
    mediaType: 'text/event-stream',
    response: {
      type: 'string',
      description:
        'events: `data` is { seq, kind, at, actor, authority: { principal?, role?, project?, system? }, hash, prev_hash, summary } — summary names ids, versions, outcomes and the gate label per kind (null for other kinds) — or { seq, hash, prev_hash, redacted: true }',
    },
    errors: ['INVALID_ARGUMENT', 'INVALID_PROJECT', 'RATE_LIMITED', 'EVENT_STREAMS_FULL'],
  },
];

/** `/v1/projects/:project/x/:id` → `/v1/projects/{project}/x/{id}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function parameters(op: OperationDoc): JsonObject[] {
  const names = [...op.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  const path = names.map(
    (name): JsonObject => ({
      name,
      in: 'path',
      required: true,
      description:
        name === 'project'
          ? 'the project; must be the bearer token’s'
          : (op.params?.[name] ?? name),
      schema:
        name === 'project'
          ? { type: 'string', pattern: PROJECT_NAME.source }
          : { type: 'string', maxLength: 100 },
    }),
  );
  const query = (op.query ?? []).map(
    (q): JsonObject => ({
      name: q.name,
      in: 'query',
      required: false,
      description: q.description,
      schema: q.schema,
    }),
  );
  const headers = (op.headers ?? []).map(
    (h): JsonObject => ({
      name: h.name,
      in: 'header',
      required: false,
      description: h.description,
      schema: h.schema,
    }),
  );
  return [...path, ...query, ...headers];
}

/** What the JSON body parser answers before any route runs. */
const BODY_ERRORS: readonly ErrorCode[] = [
  'MALFORMED_BODY',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NESTING_TOO_DEEP',
];

function responses(op: OperationDoc): JsonObject {
  const out: Record<string, JsonObject> = {
    [String(op.status)]: {
      description: 'success',
      ...(op.responseHeaders
        ? {
            headers: Object.fromEntries(
              Object.entries(op.responseHeaders.documented).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
      content: { [op.mediaType ?? 'application/json']: { schema: op.response } },
    },
  };
  const codes = new Set<ErrorCode>(op.errors);
  if (op.body) for (const code of BODY_ERRORS) codes.add(code);
  if (op.minRole) {
    // The auth hook, unknown query parameters, and (on writes) bodies that claim authority.
    codes.add('UNAUTHENTICATED');
    codes.add('FORBIDDEN');
    codes.add('INVALID_ARGUMENT');
    if (op.method !== 'GET') {
      codes.add('INVALID_BODY');
      codes.add('AUTHORITY_FROM_PAYLOAD');
    }
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.sort().join(', '),
      content: { 'application/json': { schema: op.errorSchema ?? ref('Error') } },
    };
  }
  return out;
}

function operation(op: OperationDoc): JsonObject {
  const doc: Record<string, unknown> = {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    parameters: parameters(op),
    responses: responses(op),
    security: op.minRole ? [{ bearer: [] }] : [],
  };
  if (op.minRole) doc['x-min-role'] = op.minRole;
  if (op.body) {
    doc.requestBody = {
      required: op.body.required,
      content: {
        'application/json': {
          schema: op.body.schema,
          ...(op.body.example !== undefined ? { example: op.body.example } : {}),
        },
      },
    };
  }
  return doc as JsonObject;
}

/** A route another face serves on this server (MCP at `/mcp`), as the document lists it. */
export interface MountDoc {
  readonly methods: readonly ('GET' | 'POST' | 'DELETE')[];
  readonly url: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
}

function mountDocs(mount: MountDoc): OperationDoc[] {
  return mount.methods.map((method) => ({
    method,
    url: mount.url,
    operationId: `${mount.operationId}${method === 'POST' ? '' : method[0]! + method.slice(1).toLowerCase()}`,
    summary: mount.summary,
    tag: mount.tag,
    minRole: 'viewer' as const,
    ...(method === 'POST'
      ? { body: { schema: { type: 'object' }, required: true, example: { jsonrpc: '2.0' } } }
      : {}),
    status: 200,
    response: { type: 'object' },
    errors: [],
  }));
}

/** Every documented route: the operation table, the routes registered elsewhere, and mounts. */
export function documentedRoutes(mounts: readonly MountDoc[] = []): readonly OperationDoc[] {
  return [
    ...OTHER_ROUTES,
    ...OPERATIONS.map((op: Operation): OperationDoc => op),
    ...mounts.flatMap(mountDocs),
  ];
}

const cache = new Map<string, JsonObject>();

/** The OpenAPI 3.1 document of the HTTP API (with the routes other faces mount on it). */
export function openApiDocument(mounts: readonly MountDoc[] = []): JsonObject {
  const key = mounts.map((m) => m.url).join(' ');
  const hit = cache.get(key);
  if (hit) return hit;
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const op of documentedRoutes(mounts)) {
    const path = openApiPath(op.url);
    paths[path] = { ...paths[path], [op.method.toLowerCase()]: operation(op) };
  }
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'canonry',
      version: '0.1.0',
      description:
        'Governed state for LLM systems. Project routes need `Authorization: Bearer <token>` of that project; the principal (id, role) comes from the token, never the body. Errors are `{ error: { code, message, details? } }` with the codes of docs/errors.md.',
    },
    servers: [{ url: '/' }],
    tags: [
      'service',
      'tcp-ap',
      'journal',
      'messages',
      'classifier',
      'proposals',
      'objects',
      'board',
      'artifacts',
      'working-set',
      'relay',
      'evolution',
      'tokens',
      'mcp',
    ].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'a project token (cnr_…) from `canonry tokens create` or POST …/tokens',
        },
      },
      schemas: { ...SCHEMAS },
    },
  } as JsonObject;
  cache.set(key, doc);
  return doc;
}

/** Serves the document at {@link OPENAPI_PATH} (public). */
export function openApiRoute(app: FastifyInstance, mounts: readonly MountDoc[] = []): void {
  app.get(OPENAPI_PATH, async () => openApiDocument(mounts));
}
