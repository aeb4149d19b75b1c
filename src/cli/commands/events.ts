import type { Command } from 'commander';
import { OPERATIONS } from '../../operations/index.js';
import { operationCommand } from './canon.js';

/**
 * `canonry events list | show | verify | dead-letters | retry | feedback`: the evolution operations
 * (also under `canonry canon events …`), as the principal of `--token`, or, against the data
 * directory with `--project` and no token, as its operator.
 */
export function eventsCommand(program: Command): void {
  const events = program
    .command('events')
    .description(
      "a project's qualified cognitive events (GCS): list, show, verify, dead letters, feedback",
    );
  const parents = new Map<string, Command>();
  for (const op of OPERATIONS) {
    if (op.tag === 'evolution' && op.cli?.command.startsWith('events ')) {
      operationCommand(events, parents, op, { skip: 1, operator: true });
    }
  }
}
