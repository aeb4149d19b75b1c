import type { FastifyInstance } from 'fastify';
import FindMyWay from 'find-my-way';

/** One route as Fastify registered it. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

const tables = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route Fastify registers on `app` (through its `onRoute` hook, so nothing can be
 * registered around it); call before any route is added. Implicit HEAD routes are left out.
 */
export function recordRoutes(app: FastifyInstance): void {
  const table: RegisteredRoute[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') table.push({ method, url: route.url });
    }
  });
}

/** The routes registered on `app` since {@link recordRoutes}. */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return tables.get(app) ?? [];
}

const routers = new WeakMap<
  FastifyInstance,
  { size: number; router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1> }
>();

/**
 * A router holding `app`'s routes, built with the same matcher Fastify routes with (find-my-way,
 * under `app`'s own matching options), so a path is "answered" here exactly when Fastify would
 * answer it: parameters, wildcards, regular-expression parameters, percent-decoding and the length
 * bound alike. Built on first use and again only if routes were added since.
 */
function routerOf(app: FastifyInstance): FindMyWay.Instance<FindMyWay.HTTPVersion.V1> {
  const table = registeredRoutes(app);
  const kept = routers.get(app);
  if (kept !== undefined && kept.size === table.length) return kept.router;
  const config = app.initialConfig;
  const router = FindMyWay({
    caseSensitive: config.caseSensitive ?? true,
    ignoreTrailingSlash: config.ignoreTrailingSlash ?? false,
    ignoreDuplicateSlashes: config.ignoreDuplicateSlashes ?? false,
    maxParamLength: config.maxParamLength ?? 100,
    allowUnsafeRegex: true,
  });
  const answer = () => undefined;
  for (const route of table) router.on(route.method as FindMyWay.HTTPMethod, route.url, answer);
  routers.set(app, { size: table.length, router });
  return router;
}

/**
 * The methods `app` answers at `url` (for a 405's `Allow`): none when no route has that path. Only
 * called for requests no route answered.
 */
export function methodsAt(app: FastifyInstance, url: string): string[] {
  const router = routerOf(app);
  const methods = new Set(registeredRoutes(app).map((route) => route.method));
  return [...methods]
    .filter((method) => router.find(method as FindMyWay.HTTPMethod, url) !== null)
    .sort();
}
