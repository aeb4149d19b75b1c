// A canon runtime served over real HTTP on loopback for the route suites: the server, one token per
// principal of the project, and a caller scoped to `/v1/projects/<project>`.
import type { TokenRole } from '../../src/auth/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from './auth.js';
import type { EngineRuntime } from './canon.js';

export interface ServedCanon<K extends string> {
  readonly env: EngineRuntime;
  readonly url: string;
  /** Each principal's bearer token. */
  readonly t: Record<K, string>;
  api(method: string, path: string, token: string | null, body?: unknown): ReturnType<typeof call>;
  close(): Promise<void>;
}

export async function serveCanon<K extends string>(
  open: () => Promise<EngineRuntime>,
  project: string,
  principals: Record<K, TokenRole>,
): Promise<ServedCanon<K>> {
  const env = await open();
  const app = buildServer(env.runtime, { logLevel: 'silent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const t = await tokensFor(env.runtime, project, principals);
  return {
    env,
    url,
    t,
    api: (method, path, token, body) =>
      call(url, method, `/v1/projects/${project}${path}`, token, body),
    close: async () => {
      await app.close();
      await env.close();
    },
  };
}
