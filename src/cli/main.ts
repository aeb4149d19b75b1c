#!/usr/bin/env node
import { CommanderError } from 'commander';
import { EXIT, reportError } from './io.js';

/**
 * `canonry tokens …` builds a program of that command alone: the other commands' modules (the HTTP
 * server, the kernel, canon) take longer to load than issuing a token takes.
 */
async function program(argv: string[]) {
  if (argv[2] === 'tokens') return (await import('./tokens-program.js')).buildTokensProgram();
  return (await import('./program.js')).buildProgram();
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
