import { Command } from 'commander';
import { backupCommand } from './commands/backup.js';
import { canonCommand } from './commands/canon.js';
import { demoCommand } from './commands/demo.js';
import { eventsCommand } from './commands/events.js';
import { journalCommand } from './commands/journal.js';
import { keysCommand } from './commands/keys.js';
import { mcpCommand } from './commands/mcp.js';
import { relayCommand } from './commands/relay.js';
import { replayCommand } from './commands/replay.js';
import { serveCommand } from './commands/serve.js';
import { tokensCommand } from './commands/tokens.js';
import { validateCommand } from './commands/validate.js';
import { verifyCommand } from './commands/verify.js';
import type { Faces } from './faces.js';
import { PROGRAM } from './program-info.js';

/**
 * Builds the `canonry` command; exported so tests can drive it without a child process. `faces`
 * are the HTTP (and MCP) faces `serve` and `mcp` run, given by the process entry.
 */
export function buildProgram(faces: Faces): Command {
  const program = new Command()
    .name(PROGRAM.name)
    .description(PROGRAM.description)
    .version(PROGRAM.version)
    .exitOverride()
    .showHelpAfterError(false);
  serveCommand(program, faces);
  validateCommand(program);
  verifyCommand(program);
  keysCommand(program);
  journalCommand(program);
  backupCommand(program);
  demoCommand(program);
  tokensCommand(program);
  canonCommand(program);
  relayCommand(program);
  eventsCommand(program);
  replayCommand(program);
  mcpCommand(program, faces);
  return program;
}
