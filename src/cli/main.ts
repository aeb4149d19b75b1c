#!/usr/bin/env node
import { type Command, CommanderError } from 'commander';
import { CanonryError } from '../core/index.js';
import type { Faces } from './faces.js';
import { EXIT, reportError } from './io.js';
import { PROGRAM } from './program-info.js';
import { forTerminal } from './terminal.js';

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
 * A reader that went away (`canonry … | head -1`) is not the command's failure: later output is
 * dropped instead of an unhandled EPIPE with a stack trace, and the command finishes its work
 * (closing the store, signing checkpoints) as it would have.
 */
function toleratePipeClose(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = (() => true) as typeof stream.write;
    // A writer waiting for room (journal export) would wait forever on a closed pipe.
    stream.emit('drain');
  });
}

/**
 * With `--json`, commander's usage errors are reported as JSON (below), not as its text; without,
 * its text is shown as every other line is, a hostile argument's control characters escaped.
 */
function routeUsageErrors(command: Command, json: boolean): void {
  command.configureOutput({
    outputError: json ? () => undefined : (text, write) => write(forTerminal(text)),
  });
  for (const sub of command.commands) routeUsageErrors(sub, json);
}

/** Commander's exits that are not usage errors: help and version. */
const NOT_USAGE = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

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
  toleratePipeClose(process.stdout);
  toleratePipeClose(process.stderr);
  try {
    const built = await program(argv);
    routeUsageErrors(built, json);
    await built.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (json && err.exitCode !== 0 && !NOT_USAGE.has(err.code)) {
        const message = err.message.replace(/^error: /, '');
        reportError(new CanonryError('INVALID_ARGUMENT', message, { usage: err.code }), true);
        return;
      }
      process.exitCode = err.exitCode === 0 ? EXIT.OK : EXIT.FAILED;
      return;
    }
    reportError(err, json);
  }
}

await main(process.argv);
