import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Invoker } from '../operations/index.js';
import { createMcpServer, type McpIdentity } from './server.js';
import { StdioLines } from './stdio-lines.js';

/**
 * Serves MCP over this process's stdin and stdout (stdout carries JSON-RPC alone) until the client
 * closes stdin; resolves then.
 */
export async function serveStdio(
  invoker: Invoker,
  identity: McpIdentity,
  version: string,
): Promise<void> {
  const server = createMcpServer(invoker, identity, version);
  // Bounded and answered line by line before the SDK's transport reads them (`stdio-lines.ts`).
  const lines = new StdioLines((refusal) => {
    process.stdout.write(`${JSON.stringify(refusal)}\n`);
  });
  process.stdin.pipe(lines);
  const transport = new StdioServerTransport(lines, process.stdout);
  const ended = new Promise<void>((done) => {
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    transport.onclose = done;
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
