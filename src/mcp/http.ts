import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { CanonryRuntime } from '../app/index.js';
import type { AuthPrincipal } from '../auth/index.js';
import { principalInvoker } from '../operations/index.js';
import { headerRefusal } from './http-headers.js';
import { refusalOf } from './message-check.js';
import { createMcpServer } from './server.js';

/** Where `canonry serve` answers MCP. */
export const MCP_PATH = '/mcp';

/**
 * MCP's streamable HTTP transport as a route the HTTP face mounts (it never imports this module: the
 * process entry hands it over). Stateless: each POST carries the bearer token the server has already
 * checked, and gets a server of its own acting as that token's principal; nothing is kept between
 * requests, so any `canonry serve` behind a balancer answers any request.
 */
export function mcpMount(runtime: CanonryRuntime, version: string) {
  return {
    methods: ['POST'] as const,
    url: MCP_PATH,
    operationId: 'mcp',
    summary:
      "Model Context Protocol over streamable HTTP (stateless JSON-RPC): the operations as tools within the token's role, the project's board and working set as resources",
    tag: 'mcp',
    async handle(
      principal: AuthPrincipal,
      request: IncomingMessage,
      response: ServerResponse,
      body: unknown,
    ): Promise<void> {
      // What stdio refuses is refused here too, with canonry's code: the SDK's transport would run a
      // batch of up to 100 calls in one request, and answer any other malformed message -32700
      // "parse error" with no code a client can act on.
      const wrongHeader = headerRefusal(request);
      if (wrongHeader) {
        response.writeHead(wrongHeader.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(wrongHeader.refusal));
        return;
      }
      const refused = refusalOf(body);
      if (refused) {
        // A request answered with invalid params is a JSON-RPC answer like any other (200, as the
        // SDK's transport sends it, so its client hands the error to the caller); the rest is not
        // a message the transport takes (400).
        const status = refused.error.code === ErrorCode.InvalidParams ? 200 : 400;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(refused));
        return;
      }
      const server = createMcpServer(
        principalInvoker(runtime, principal),
        { project: principal.project, role: principal.role },
        version,
      );
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    },
  };
}
