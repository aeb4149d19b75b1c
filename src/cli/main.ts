#!/usr/bin/env node
import { CommanderError } from 'commander';
import type { Faces } from './faces.js';
import { EXIT, reportError } from './io.js';
import { PROGRAM } from './program-info.js';

/**
 * The process entry is the one place that joins the faces: `serve` gets the HTTP face (with MCP at /mcp)
 * and `mcp` the MCP face from here,
 * loaded only when it runs; no command module imports another face.
 */
const FACES: Faces = {
  http: async () => {
    const [server, mcp] = await Promise.all([
      import('../server/index.js'),
      import('../mcp/index.js'),
    ]);
    return {
      createLogger: server.createLogger,
      host: (runtime, logger) => {
        const mounts = [mcp.mcpMount(runtime, PROGRAM.version)];
        const app = server.buildServer(runtime, { logger, mounts });
        return { listen: () => server.listen(app, runtime), close: () => app.close() };
      },
    };
  },
  mcp: () => import('../mcp/index.js'),
};

/**
 * `canonry tokens …` builds a program of that command alone: the other commands' modules (the HTTP
 * server, the kernel, canon) take longer to load than issuing a token takes.
 */
async function program(argv: string[]) {
  if (argv[2] === 'tokens') return (await import('./tokens-program.js')).buildTokensProgram();
  return (await import('./program.js')).buildProgram(FACES);
}

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  try {
    await (await program(argv)).parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.OK : EXIT.FAILED;
      return;
    }
    reportError(err, json);
  }
}

await main(process.argv);
