import { Command } from 'commander';
import { tokensCommand } from './commands/tokens.js';
import { PROGRAM } from './program-info.js';

/** `canonry` with only its `tokens` command (what `canonry tokens …` loads). */
export function buildTokensProgram(): Command {
  const program = new Command()
    .name(PROGRAM.name)
    .description(PROGRAM.description)
    .version(PROGRAM.version)
    .exitOverride()
    .showHelpAfterError(false);
  tokensCommand(program);
  return program;
}
