#!/usr/bin/env node
import { CommanderError } from 'commander';
import { EXIT, reportError } from './io.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.OK : EXIT.FAILED;
      return;
    }
    reportError(err, json);
  }
}

await main(process.argv);
