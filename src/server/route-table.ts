import type { FastifyInstance } from 'fastify';

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

/** Whether `path` (no query) is an instance of the route pattern `url` (`:name` a segment, `*` the rest). */
function matches(url: string, path: string): boolean {
  const want = url.split('/');
  const got = path.split('/');
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment === '*') return true;
    const part = got[i];
    if (part === undefined) return false;
    if (segment.startsWith(':') ? part === '' : segment !== part) return false;
  }
  return got.length === want.length;
}

/**
 * The methods `app` answers at `path` (for a 405's `Allow`): none when no route has that path. Only
 * called for requests no route answered, so a linear look over the table is fine.
 */
export function methodsAt(app: FastifyInstance, path: string): string[] {
  const methods = new Set<string>();
  for (const route of registeredRoutes(app)) {
    if (matches(route.url, path)) methods.add(route.method);
  }
  return [...methods].sort();
}
