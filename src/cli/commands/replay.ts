import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import {
  kernelVerdictReplayer,
  type RelayReplayInputs,
  relayWindowReplayer,
} from '../../app/index.js';
import { CanonryError, type JsonValue } from '../../core/index.js';
import { type ReplayReport, replayEvent, verifyQualifiedEvent } from '../../evolution/index.js';
import { parseRecordings } from '../../models/index.js';
import { EXIT, emit, readJson, readText } from '../io.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';

interface ReplayOptions extends RuntimeFlags {
  artifact?: string;
  session?: string;
  recordings?: string;
  json?: boolean;
}

/**
 * What a replay file holds: a signed event alone, or `{ event, artifact?, relay?: { session,
 * recordings } }` — the event and the inputs it names by hash or reference.
 */
function readBundle(path: string) {
  const value = readJson(path, 'EVENT') as Record<string, unknown> | null;
  if (value !== null && typeof value === 'object' && 'event' in value) {
    return value as { event: unknown; artifact?: JsonValue; relay?: RelayReplayInputs };
  }
  return { event: value } as { event: unknown; artifact?: JsonValue; relay?: RelayReplayInputs };
}

function lines(report: ReplayReport): string[] {
  if (report.status === 'match') {
    return [`match ${report.event_id} (${report.execution_class}): ${report.compared.join(', ')}`];
  }
  const { path, expected, actual } = report.difference;
  return [
    `differ ${report.event_id} (${report.execution_class}) at ${path}`,
    `  recorded ${JSON.stringify(expected)}`,
    `  replayed ${JSON.stringify(actual)}`,
  ];
}

/**
 * `canonry replay EVENT_FILE [--artifact A.json] [--session S.json --recordings R.jsonl]`: verifies
 * the signed event against the data directory's root, re-executes the work it records (a kernel
 * verdict, a relay window with the replay model) and prints `match` or the first difference; exit
 * 0 on a match, 1 on a difference or an error. Events are read from files: an id names an event
 * in the event store, which this build does not hold.
 */
export function replayCommand(program: Command): void {
  program
    .command('replay')
    .description(
      're-execute the work a signed qualified cognitive event records; match or the first difference',
    )
    .argument('<event>', 'a file holding a signed event, or { event, artifact?, relay? }')
    .option('--artifact <file>', 'the recorded artifact of a kernel.verdict event (JSON)')
    .option('--session <file>', 'the relay session as started (JSON), for a relay.window event')
    .option('--recordings <file>', 'the model recordings (JSONL), for a relay.window event')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print the report as JSON')
    .action(async (eventArg: string, opts: ReplayOptions) => {
      if (!existsSync(eventArg)) {
        throw new CanonryError(
          'INVALID_ARGUMENT',
          `${eventArg} is not a file: give a file holding a signed event (this build has no event store to find an id in)`,
          { field: 'event' },
        );
      }
      const bundle = readBundle(eventArg);
      const artifact =
        opts.artifact === undefined
          ? bundle.artifact
          : (readJson(opts.artifact, '--artifact') as JsonValue);
      const relay: RelayReplayInputs | undefined =
        opts.session !== undefined && opts.recordings !== undefined
          ? {
              session: readJson(opts.session, '--session') as RelayReplayInputs['session'],
              recordings: parseRecordings(readText(opts.recordings, '--recordings')),
            }
          : bundle.relay;
      const report = await withRuntime(
        opts,
        async (runtime) => {
          const verified = verifyQualifiedEvent(bundle.event, {
            root: runtime.keyring.rootCertificatePem,
            revocationList: runtime.keyring.revocationListPem(),
          });
          if (!verified.ok) {
            const issue = verified.issues[0]!;
            throw new CanonryError(issue.code, issue.message, { path: issue.path ?? null });
          }
          return replayEvent(verified.value.event, [
            kernelVerdictReplayer({
              registry: runtime.kernel.registry,
              signer: () => runtime.keyring.signer(),
              // Given, it is replayed as given: another artifact shows as the first difference.
              artifact: () => artifact,
            }),
            relayWindowReplayer(() => relay),
          ]);
        },
        { create: false },
      );
      emit(opts.json === true, report, () => lines(report));
      process.exitCode = report.status === 'match' ? EXIT.OK : EXIT.FAILED;
    });
}
