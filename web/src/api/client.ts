import createClient from 'openapi-fetch';
import type { paths } from './openapi.gen.js';
import { type ProposalPageRequest, proposalPageQuery } from './proposal-page.js';
import type { ValidateEnvelope } from './types.js';

/** A refused or failed call: the server's typed error (`{ error: { code, message } }`), or no server. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Where the workbench is signed in: a project and a bearer token of it. */
export interface Session {
  readonly project: string;
  readonly token: string;
}

interface Result<T> {
  readonly data?: T;
  readonly error?: unknown;
  readonly response: Response;
}

function errorOf(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${status}`;
  const message =
    typeof error?.message === 'string' ? error.message : `the server answered ${status}`;
  return new ApiError(status, code, message);
}

/** The data of an answered call, or its {@link ApiError}. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'SERVER_UNREACHABLE', 'the canonry server did not answer');
  }
  if (result.error !== undefined || result.data === undefined) {
    throw errorOf(result.response.status, result.error);
  }
  return result.data;
}

/**
 * The typed API client of one session. Every call is an OpenAPI path and method of the generated
 * `paths` (so a call the server does not document does not compile), and `test/web` holds each
 * path and method used here to the document a real server serves.
 */
export function createApi(session: Session, origin: string = window.location.origin) {
  const client = createClient<paths>({
    baseUrl: origin,
    headers: { authorization: `Bearer ${session.token}` },
  });
  const project = { project: session.project };
  const proposal = (id: string) => ({ path: { ...project, id } });
  const relay = (session: string) => ({ params: { path: { ...project, session } } });
  return {
    session,
    whoami: () =>
      unwrap(client.GET('/v1/projects/{project}/whoami', { params: { path: project } })),
    board: () => unwrap(client.GET('/v1/projects/{project}/board', { params: { path: project } })),
    /** One page of proposals: oldest first after `cursor`, or newest first before it. */
    proposals: (page: ProposalPageRequest) =>
      unwrap(
        client.GET('/v1/projects/{project}/proposals', {
          params: { path: project, query: proposalPageQuery(page) },
        }),
      ),
    proposal: (id: string) =>
      unwrap(client.GET('/v1/projects/{project}/proposals/{id}', { params: proposal(id) })),
    approve: (id: string, baseVersion: string | null) =>
      unwrap(
        client.POST('/v1/projects/{project}/proposals/{id}/approve', {
          params: proposal(id),
          ...(baseVersion ? { body: { base_version: baseVersion } } : {}),
        }),
      ),
    reject: (id: string, reason: string) =>
      unwrap(
        client.POST('/v1/projects/{project}/proposals/{id}/reject', {
          params: proposal(id),
          body: { reason },
        }),
      ),
    /** An object's provenance walk (LCSM §8): its versions, sources, authority and dependents. */
    provenance: (id: string) =>
      unwrap(
        client.GET('/v1/projects/{project}/objects/{id}/provenance', { params: proposal(id) }),
      ),
    /** The dependency graph around a note (LCSM §10): what it rests on and what rests on it. */
    graph: (id: string) =>
      unwrap(client.GET('/v1/projects/{project}/objects/{id}/graph', { params: proposal(id) })),
    /** An object with its current version. */
    object: (id: string) =>
      unwrap(client.GET('/v1/projects/{project}/objects/{id}', { params: proposal(id) })),
    /** One version of an object, by its hash. */
    version: (id: string, hash: string) =>
      unwrap(
        client.GET('/v1/projects/{project}/objects/{id}/versions/{version}', {
          params: { path: { ...project, id, version: hash } },
        }),
      ),
    /** A page of an object's versions, newest first, before the version number `before`. */
    versions: (id: string, before: number, limit: number) =>
      unwrap(
        client.GET('/v1/projects/{project}/objects/{id}/versions', {
          params: { ...proposal(id), query: { order: 'newest', before, limit } },
        }),
      ),
    /** Restores version `version` by proposing its content as a new version (gated; it appends). */
    restore: (id: string, version: number, rationale: string) =>
      unwrap(
        client.POST('/v1/projects/{project}/objects/{id}/restore', {
          params: proposal(id),
          body: { version, rationale },
        }),
      ),
    /** One page of the objects of `status` in id order: `limit` of them after the id `after`. */
    objects: (status: string, limit: number, after: string) =>
      unwrap(
        client.GET('/v1/projects/{project}/objects', {
          params: { path: project, query: { status, limit, after } },
        }),
      ),
    /** One page of artifacts in id order: `limit` of them after the id `after` (null: the first). */
    artifacts: (limit: number, after: string | null) =>
      unwrap(
        client.GET('/v1/projects/{project}/artifacts', {
          params: { path: project, query: { limit, ...(after === null ? {} : { after }) } },
        }),
      ),
    /** Up to `limit` journal entries after `after`, each as its kind's policy-safe summary. */
    journalSummaries: (after: number, limit: number) =>
      unwrap(
        client.GET('/v1/projects/{project}/journal', {
          params: { path: project, query: { after, limit, summary: true } },
        }),
      ),
    /** Up to `limit` whole journal entries after `after` (redacted where §14 says so). */
    journalEntries: (after: number, limit: number) =>
      unwrap(
        client.GET('/v1/projects/{project}/journal', {
          params: { path: project, query: { after, limit } },
        }),
      ),
    receipt: (seq: number) =>
      unwrap(
        client.GET('/v1/projects/{project}/journal/{seq}/receipt', {
          params: { path: { ...project, seq: String(seq) } },
        }),
      ),
    /** Verifies the project's hash chain and signed checkpoints. */
    verifyJournal: () =>
      unwrap(client.GET('/v1/projects/{project}/journal/verify', { params: { path: project } })),
    relaySessions: () =>
      unwrap(
        client.GET('/v1/projects/{project}/relay/sessions', {
          params: { path: project, query: { limit: 100 } },
        }),
      ),
    relaySession: (id: string) =>
      unwrap(client.GET('/v1/projects/{project}/relay/sessions/{session}', relay(id))),
    relayQuality: (id: string) =>
      unwrap(
        client.GET('/v1/projects/{project}/relay/sessions/{session}/quality', {
          params: { ...relay(id).params, query: { limit: 500 } },
        }),
      ),
    /** One completed window of a session, with its CSO. */
    relayWindow: async (id: string, window: number) => {
      const page = await unwrap(
        client.GET('/v1/projects/{project}/relay/sessions/{session}/windows', {
          params: { ...relay(id).params, query: { after: window - 1, limit: 1 } },
        }),
      );
      const found = page.windows.find((w) => w.window_number === window);
      if (!found) throw new ApiError(404, 'UNKNOWN_WINDOW', `no window ${window} in ${id}`);
      return found;
    },
    relayChain: (id: string) =>
      unwrap(client.GET('/v1/projects/{project}/relay/sessions/{session}/verify', relay(id))),
    /**
     * TCP/AP §6 on the public endpoint. A verdict is an envelope whatever the status (400
     * INVALID_REQUEST and 422 INTERPRETATION_DRIFT are verdicts too), so it is returned as such.
     */
    validate: async (body: {
      artifact: unknown;
      agentic_protocol: Record<string, unknown> | string;
      generation_metadata_hash: string;
    }): Promise<ValidateEnvelope> => {
      let result: Result<ValidateEnvelope>;
      try {
        result = await client.POST('/v1/validate', {
          body: body as {
            artifact: unknown;
            agentic_protocol: string;
            generation_metadata_hash: string;
          },
        });
      } catch {
        throw new ApiError(0, 'SERVER_UNREACHABLE', 'the canonry server did not answer');
      }
      const envelope = (result.data ?? result.error) as Partial<ValidateEnvelope> | undefined;
      if (envelope?.status === 'EVALUATED' || envelope?.status === 'REJECTED')
        return envelope as ValidateEnvelope;
      throw errorOf(result.response.status, result.error);
    },
    /** A signed event checked by the server against its pinned root and revocation list (§7). */
    verifyEvent: (body: {
      event: Record<string, unknown>;
      artifact?: unknown;
      protocol?: Record<string, unknown>;
      generation_metadata_hash?: string;
    }) =>
      unwrap(
        client.POST('/v1/projects/{project}/verify', {
          params: { path: project },
          body: body as { event: Record<string, never> },
        }),
      ),
    /** The pinned root, the issuers and the revocation list. */
    trust: () => unwrap(client.GET('/v1/trust')),
    /** The journal's head seq: where a live feed starts. */
    journalHead: async (): Promise<number> => {
      const page = await unwrap(
        client.GET('/v1/projects/{project}/journal', {
          params: { path: project, query: { limit: 1 } },
        }),
      );
      const seq = (page.head as { seq?: unknown }).seq;
      if (typeof seq !== 'number') throw new ApiError(0, 'INVALID_RESPONSE', 'no journal head');
      return seq;
    },
    /** The live feed after `after`, as a byte stream of server-sent events. */
    events: (after: number, signal: AbortSignal) =>
      unwrap(
        client.GET('/v1/projects/{project}/events', {
          params: { path: project, query: { after } },
          parseAs: 'stream',
          signal,
        }),
      ) as Promise<ReadableStream<Uint8Array>>,
  };
}

/** The API of one session. */
export type Api = ReturnType<typeof createApi>;
