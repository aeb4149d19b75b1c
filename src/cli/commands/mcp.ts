import type { Command } from 'commander';
import { CanonryError } from '../../core/index.js';
import { authorizeToken, localInvoker } from '../../operations/index.js';
import type { Faces } from '../faces.js';
import { PROGRAM } from '../program-info.js';
import { type RemoteFlags, remoteOf, TIMEOUT_FLAG } from '../remote.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';

interface McpFlags extends RuntimeFlags, RemoteFlags {}

/**
 * `canonry mcp`: the operations as MCP tools over stdio, acting as the principal of `--token` (or
 * CANONRY_TOKEN), against the data directory or, with `--url`, a running server. The token is
 * checked before the first message; stdout carries JSON-RPC alone.
 */
export function mcpCommand(program: Command, faces: Faces): void {
  program
    .command('mcp')
    .description('serve the operations as MCP tools over stdio, as the principal of --token')
    .option('--token <token>', 'bearer token to act as (CANONRY_TOKEN)')
    .option('--url <server>', 'act through a running canonry serve (CANONRY_URL) instead of --data')
    .option('--project <name>', 'the project (required with --url)')
    .option(...TIMEOUT_FLAG)
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .action(async (flags: McpFlags) => {
      const mcp = await faces.mcp();
      const token = flags.token ?? process.env.CANONRY_TOKEN;
      if (!token) {
        throw new CanonryError('UNAUTHENTICATED', 'a token is required (--token or CANONRY_TOKEN)');
      }
      const remote = remoteOf({ ...flags, token });
      if (remote !== undefined) {
        // The role is the server's to know: every tool but the hidden ones is listed, and the
        // server refuses what the token may not do.
        await mcp.serveStdio(
          remote.invoker,
          { project: remote.project, role: null },
          PROGRAM.version,
        );
        return;
      }
      // A token is valid only in a data directory that exists: none is made to refuse it in.
      await withRuntime(
        flags,
        async (runtime) => {
          const principal = await authorizeToken(runtime.tokens, token, flags.project, 'viewer');
          await mcp.serveStdio(
            localInvoker(runtime, token),
            { project: principal.project, role: principal.role },
            PROGRAM.version,
          );
        },
        { create: false },
      );
    });
}
