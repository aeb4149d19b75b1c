import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import type { TokenRole } from '../../auth/index.js';
import type { Principal } from '../../canon/index.js';
import type { ErrorCode, JsonObject } from '../../core/index.js';
import { CanonryError } from '../../core/index.js';
import { principalOf } from '../auth.js';
import { refuseReservedProject } from '../authorize.js';
import { noBody, onlyQuery } from '../input.js';

/** A query parameter as documented. */
export interface QueryDoc {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonObject;
}

/** What a project route is given: the principal from the token and the raw, unchecked inputs. */
export interface RouteContext {
  readonly runtime: CanonryRuntime;
  readonly principal: Principal;
  /** The project, which the auth hook has already matched to the token. */
  readonly project: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/**
 * One project route, declared once: Fastify registers it from this, the auth hook reads its least
 * role, and the OpenAPI document is written from it.
 */
export interface CanonRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The Fastify URL, under `/v1/projects/:project`. */
  readonly url: string;
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  readonly minRole: TokenRole;
  /** Path parameters besides `project`, with their descriptions. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: readonly QueryDoc[];
  /** The request body; routes without one refuse any body. */
  readonly body?: {
    readonly schema: JsonObject;
    readonly required: boolean;
    /** A valid body, used by the docs and by the tests that must reach every route. */
    readonly example: unknown;
  };
  readonly status: number;
  readonly response: JsonObject;
  /** The error codes the route can answer with (besides the auth and transport ones). */
  readonly errors: readonly ErrorCode[];
  readonly handler: (ctx: RouteContext) => Promise<unknown>;
}

/** Registers project routes: query and body presence are checked here, everything else per route. */
export function registerCanonRoutes(
  app: FastifyInstance,
  runtime: CanonryRuntime,
  routes: readonly CanonRoute[],
): void {
  for (const route of routes) {
    const allowedQuery = (route.query ?? []).map((q) => q.name);
    app.route({
      method: route.method,
      url: route.url,
      config: { minRole: route.minRole },
      handler: async (request, reply) => {
        const principal = principalOf(request);
        refuseReservedProject(principal.project);
        // A chain that did not verify serves nothing from its projections: they could be forged.
        const broken = runtime.journal.brokenChain(principal.project);
        if (broken) {
          throw new CanonryError(
            'CHAIN_BROKEN',
            `the journal of ${principal.project} does not verify (seq ${broken.seq}: ${broken.reason}); canon is not served until an operator repairs it`,
            { ...broken },
          );
        }
        const query = onlyQuery(request.query, allowedQuery);
        if (!route.body) noBody(request.body);
        const result = await route.handler({
          runtime,
          principal,
          project: principal.project,
          params: request.params as Record<string, string>,
          query,
          body: request.body,
        });
        return reply.code(route.status).send(result);
      },
    });
  }
}
