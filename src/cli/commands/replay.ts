import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import {
  type CanonryRuntime,
  eventVerifierOf,
  journalRelayInputs,
  kernelVerdictReplayer,
  type RelayReplayInputs,
  relayWindowReplayer,
} from '../../app/index.js';
import { CanonryError, type JsonValue } from '../../core/index.js';
import {
  EventStore,
  type QualifiedEvent,
  type ReplayReport,
  replayEvent,
} from '../../evolution/index.js';
import { parseRecordings, recordingOf } from '../../models/index.js';
import { parseInstantFlag } from '../instant-flag.js';
import { EXIT, emit, readJson, readText } from '../io.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';

interface ReplayOptions extends RuntimeFlags {
  project?: string;
  artifact?: string;
  session?: string;
  recordings?: string;
  at?: string;
  json?: boolean;
}

type Session = RelayReplayInputs['session'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A relay session as started, read from outside (`--session`, a bundle's `relay.session`): an object
 * whose `air`, when given, is one. Its fields are checked where the replay starts it, as any
 * session's are (`INVALID_ARGUMENT` naming the field).
 */
function sessionOf(value: unknown, where: string): Session {
  if (!isObject(value) || (value.air !== undefined && !isObject(value.air))) {
    throw new CanonryError(
      'MALFORMED_FILE',
      `${where} is not a relay session as started (an object: mode, objective, …, air)`,
    );
  }
  return value as unknown as Session;
}

/**
 * What a replay file holds: a signed event alone, or `{ event, artifact?, relay?: { session,
 * recordings? } }` — the event and the inputs it names by hash or reference, each checked here.
 */
function readBundle(path: string): {
  event: unknown;
  artifact?: JsonValue;
  relay?: RelayReplayInputs;
} {
  const value = readJson(path, 'EVENT');
  if (!isObject(value) || !('event' in value)) return { event: value };
  const { event, artifact, relay } = value;
  if (relay === undefined)
    return { event, ...(artifact === undefined ? {} : { artifact: artifact as JsonValue }) };
  if (!isObject(relay) || (relay.recordings !== undefined && !Array.isArray(relay.recordings))) {
    throw new CanonryError('MALFORMED_FILE', `${path}: relay is { session, recordings? }`);
  }
  const recordings = (relay.recordings as unknown[] | undefined)?.map((r, i) =>
    recordingOf(r, `${path}: relay.recordings[${i}]`),
  );
  return {
    event,
    ...(artifact === undefined ? {} : { artifact: artifact as JsonValue }),
    relay: {
      session: sessionOf(relay.session, `${path}: relay.session`),
      ...(recordings === undefined ? {} : { recordings }),
    },
  };
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
 * The relay window event's session as it was started and its windows' journaled answers up to
 * the event's, from the relay's projection (rebuilt from the journal).
 */
async function journaledInputs(
  runtime: CanonryRuntime,
  project: string,
  event: QualifiedEvent,
): Promise<RelayReplayInputs | undefined> {
  const { session_id: sessionId, window_number: n } = event.outcome;
  if (typeof sessionId !== 'string' || !Number.isSafeInteger(n) || (n as number) < 1) return;
  return journalRelayInputs(runtime.relay, project, sessionId, n as number);
}

/**
 * `canonry replay EVENT [--project P] [--artifact A.json] [--session S.json] [--recordings
 * R.jsonl] [--at T]`: EVENT is a file (a signed event, or `{ event, artifact?, relay? }`) or, with
 * `--project`, an event id looked up in the project's event store. The event is verified against
 * the data directory's root (its issuer valid now, or at `--at`), the work it records is re-executed (a kernel verdict from the artifact
 * whose hash it names; a relay window with the replay model — over `--recordings` when given, else,
 * for an event from the store, over the answers the session's windows journaled up to the event's,
 * the session as started read from the store when no `--session` is given) and `match` or the
 * first difference is printed; exit 0 on a match, 1 on a difference or an error.
 */
export function replayCommand(program: Command): void {
  program
    .command('replay')
    .description(
      're-execute the work a signed qualified cognitive event records; match or the first difference',
    )
    .argument(
      '<event>',
      'a file holding a signed event or { event, artifact?, relay? }; or, with --project, an event id',
    )
    .option('--project <name>', "look the event id up in this project's event store")
    .option('--artifact <file>', 'the recorded artifact of a kernel.verdict event (JSON)')
    .option('--session <file>', 'the relay session as started (JSON), for a relay.window event')
    .option(
      '--recordings <file>',
      "the model recordings (JSONL), for a relay.window event (default, for an event id: the windows' journaled answers)",
    )
    .option(
      '--at <time>',
      "judge the event's signing certificate and the root at this instant (RFC 3339) instead of now",
    )
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print the report as JSON')
    .action(async (eventArg: string, opts: ReplayOptions) => {
      // An event's signature is checked before its work is replayed; its issuer is judged now, or
      // at the instant the caller vouches for (one that has expired since signed it then).
      const at = opts.at === undefined ? undefined : parseInstantFlag(opts.at, '--at');
      const fromStore = opts.project !== undefined && !existsSync(eventArg);
      if (!fromStore && !existsSync(eventArg)) {
        throw new CanonryError(
          'INVALID_ARGUMENT',
          `${eventArg} is not a file: give a file holding a signed event, or an event id with --project`,
          { field: 'event' },
        );
      }
      const bundle = fromStore ? { event: undefined } : readBundle(eventArg);
      const artifact =
        opts.artifact === undefined
          ? bundle.artifact
          : (readJson(opts.artifact, '--artifact') as JsonValue);
      const recordings =
        opts.recordings === undefined
          ? undefined
          : parseRecordings(readText(opts.recordings, '--recordings'));
      const givenSession =
        opts.session === undefined
          ? undefined
          : sessionOf(readJson(opts.session, '--session'), `--session ${opts.session}`);
      const report = await withRuntime(
        opts,
        async (runtime) => {
          const unverified = fromStore
            ? (await new EventStore(runtime.store).get(opts.project!, eventArg)).event
            : bundle.event;
          const verified = eventVerifierOf(runtime, at).verify(unverified);
          if (!verified.ok) {
            const issue = verified.issues[0]!;
            throw new CanonryError(issue.code, issue.message, { path: issue.path ?? null });
          }
          const event = verified.value.event;
          const journaled = fromStore
            ? await journaledInputs(runtime, opts.project!, event)
            : undefined;
          const session = givenSession ?? bundle.relay?.session ?? journaled?.session;
          // Recordings given (flag or file) stand in for the model; else the journaled answers.
          const taken = recordings ?? bundle.relay?.recordings;
          const relay: RelayReplayInputs | undefined =
            session === undefined
              ? undefined
              : taken !== undefined
                ? { session, recordings: taken }
                : journaled?.windows !== undefined
                  ? { session, windows: journaled.windows }
                  : undefined;
          return replayEvent(event, [
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
