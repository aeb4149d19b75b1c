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
