import type { Logger } from 'pino';
import type { CanonryRuntime } from '../app/index.js';
import type { TokenRole } from '../auth/index.js';
import type { Invoker } from '../operations/index.js';

/**
 * The other faces, as the commands that run them need them. `cli/` never imports `server/` or
 * `mcp/`: the process entry (`main.ts`) loads them, only when `serve` or `mcp` runs, and hands them
 * to the program here — so `canonry canon …` and `canonry tokens …` never load Fastify.
 */

/** An HTTP server built over a runtime, not yet listening. */
export interface HttpHost {
  /** Binds the runtime's host and port; resolves to the address. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The HTTP face: the process's logger, and the server (MCP mounted at `/mcp`). */
export interface HttpFace {
  createLogger(level: string): Logger;
  host(runtime: CanonryRuntime, logger: Logger): HttpHost;
}

/** The MCP face over stdio, acting as the invoker's principal. */
export interface McpFace {
  serveStdio(
    invoker: Invoker,
    identity: { project: string; role: TokenRole | null },
    version: string,
  ): Promise<void>;
}

/** The faces `serve` and `mcp` run, loaded on demand. */
export interface Faces {
  http(): Promise<HttpFace>;
  mcp(): Promise<McpFace>;
}
