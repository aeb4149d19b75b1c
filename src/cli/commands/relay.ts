import type { Command } from 'commander';
import { AIR_LIMITS, DEFAULT_IAP_BUDGET } from '../../air/index.js';
import type { CanonryRuntime } from '../../app/index.js';
import type { Principal } from '../../canon/index.js';
import { CanonryError } from '../../core/index.js';
import { type ModelPort, OpenAIModel, parseRecordings, ReplayModel } from '../../models/index.js';
import { checkBody, operationNamed, principalInvoker } from '../../operations/index.js';
import type { CompletedWindow, RelaySessionView } from '../../relay/index.js';
import { EXIT, emit, env, readText } from '../io.js';
import { type AuthorPlot, type AuthorView, scriptedAuthor } from '../relay/author.js';
import {
  figuresLine,
  figuresOf,
  localPrincipal,
  operatorProject,
  RELAY_FLAGS,
  type RelayFlags,
  relayCalls,
  withRelayInvoker,
} from '../relay/session.js';
import { showLines } from '../relay/show.js';
import { withRuntime } from '../runtime.js';

interface RunFlags extends RelayFlags {
  mode: string;
  objective: string;
  sections?: string;
  model?: string;
  modelName?: string;
  maxWindows?: string;
  maxRevisions?: string;
  airMode?: string;
  airIapBudget?: string;
}

/** What `relay run` needs besides its flags (the demo's lapses). */
export interface RunSetup {
  readonly plot?: AuthorPlot;
  /** Print the per-window lines on stdout instead of stderr (the demo's own output). */
  readonly linesTo?: NodeJS.WriteStream;
}

/** An integer flag in `[min, max]`, or `fallback` when not given. */
const integerFlag = (
  value: string | undefined,
  flag: string,
  fallback: number,
  [min, max]: readonly [number, number],
) => {
  if (value === undefined) return fallback;
  const n = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new CanonryError('INVALID_ARGUMENT', `${flag} must be an integer ${min}–${max}`, {
      field: flag,
    });
  return n;
};

/** The model a run is written by: `scripted`, `replay:FILE` (JSONL recordings) or `openai:URL`. */
function modelFor(
  flags: Pick<RunFlags, 'model' | 'modelName'>,
  view: AuthorView,
  plot: AuthorPlot,
): ModelPort {
  const spec = flags.model ?? 'scripted';
  if (spec === 'scripted') return scriptedAuthor(view, plot);
  if (spec.startsWith('replay:')) {
    const file = spec.slice('replay:'.length);
    return new ReplayModel(parseRecordings(readText(file, 'recordings')), 'replay');
  }
  if (spec.startsWith('openai:')) {
    const baseURL = spec.slice('openai:'.length);
    if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol))
      throw new CanonryError('INVALID_ARGUMENT', 'openai: takes an http(s) URL', {
        field: 'model',
      });
    const model = flags.modelName ?? process.env.CANONRY_MODEL;
    if (!model)
      throw new CanonryError(
        'INVALID_ARGUMENT',
        'name the model with --model-name or CANONRY_MODEL',
        {
          field: 'model-name',
        },
      );
    const apiKey = process.env.CANONRY_MODEL_KEY;
    return new OpenAIModel({ baseURL, model, ...(apiKey ? { apiKey } : {}) });
  }
  throw new CanonryError('INVALID_ARGUMENT', '--model is scripted, replay:FILE or openai:URL', {
    field: 'model',
  });
}

/** What `relay run --json` prints. */
export interface RunSummary {
  readonly session_id: string;
  readonly project: string;
  readonly status: string;
  readonly windows: ReturnType<typeof figuresOf>[];
}

/**
 * Starts a session and runs it through a model, one progress line per window. The session starts
 * through the operation (the checks every face runs); the windows go through `Relay.run`.
 */
export async function runRelay(flags: RunFlags, setup: RunSetup = {}): Promise<RunSummary> {
  if (flags.url !== undefined)
    throw new CanonryError('INVALID_ARGUMENT', 'relay run works on --data (the model runs here)', {
      field: 'url',
    });
  const sections = (flags.sections ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const maxWindows = integerFlag(flags.maxWindows, '--max-windows', 64, [1, 1_000]);
  // Every flag and the model are checked before the runtime opens: a bad one writes nothing (no
  // data directory, no keys, no session left without windows).
  const body: Record<string, unknown> = {
    mode: flags.mode.toUpperCase(),
    objective: flags.objective,
    remaining: sections,
  };
  if (flags.maxRevisions !== undefined)
    body.max_revisions = integerFlag(flags.maxRevisions, '--max-revisions', 3, [1, 100]);
  // CRP-018 §6.1: the session's AIR policy (checked with the body, a bad value named).
  if (flags.airMode !== undefined) body.air_mode = flags.airMode;
  if (flags.airIapBudget !== undefined)
    body.air_iap_budget = integerFlag(flags.airIapBudget, '--air-iap-budget', DEFAULT_IAP_BUDGET, [
      0,
      AIR_LIMITS.maxBudget,
    ]);
  const start = operationNamed('startRelaySession');
  checkBody(start, body);
  // The scripted author reads the session it writes for, once there is one.
  let view: AuthorView | undefined;
  const model = modelFor(
    flags,
    { prepare: () => view!.prepare(), state: () => view!.state() },
    setup.plot ?? {},
  );
  // Only the operator's run makes a data directory: a token can be valid only in one that exists,
  // so with one a fresh directory is KEYRING_MISSING and nothing is written.
  const token = flags.token ?? env('CANONRY_TOKEN');
  if (!token) operatorProject(flags);
  return withRuntime(
    flags,
    async (runtime) => {
      const principal = await localPrincipal(runtime, flags);
      const invoker = principalInvoker(runtime, { ...principal, token_id: '' });
      const started = (await invoker.invoke(start, { body })) as RelaySessionView;
      const id = started.session.session_id;
      view = {
        prepare: () => runtime.relay.prepareWindow(principal, id),
        state: () => runtime.relay.state(principal, id),
      };
      // Named before its first window, so a run that is interrupted can be picked up.
      if (setup.linesTo === undefined)
        process.stderr.write(
          `session ${id} (project ${principal.project}) started; \`canonry relay resume ${id}\` goes on from where it stops\n`,
        );
      return driveSession(runtime, principal, started, model, { maxWindows, flags, setup });
    },
    { create: !token },
  );
}

type ResumeFlags = RelayFlags & Pick<RunFlags, 'model' | 'modelName' | 'maxWindows'>;

/**
 * Runs an active session on from its next window: after a run stopped by its window limit, an
 * interrupt, a crash or a model that stopped answering (each window commits whole or not at all,
 * so there is nothing to repair first). A halted or complete session is SESSION_CLOSED.
 */
export async function resumeRelay(
  session: string,
  flags: ResumeFlags,
  setup: RunSetup = {},
): Promise<RunSummary> {
  if (flags.url !== undefined)
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'relay resume works on --data (the model runs here)',
      {
        field: 'url',
      },
    );
  const maxWindows = integerFlag(flags.maxWindows, '--max-windows', 64, [1, 1_000]);
  const state = operationNamed('getRelaySession');
  let view: AuthorView | undefined;
  const model = modelFor(
    flags,
    { prepare: () => view!.prepare(), state: () => view!.state() },
    setup.plot ?? {},
  );
  return withRuntime(
    flags,
    async (runtime) => {
      const principal = await localPrincipal(runtime, flags);
      const invoker = principalInvoker(runtime, { ...principal, token_id: '' });
      const current = (await invoker.invoke(state, { params: { session } })) as RelaySessionView;
      if (current.status !== 'active')
        throw new CanonryError(
          'SESSION_CLOSED',
          `relay session ${session} is ${current.status}: there is nothing to resume`,
          { status: current.status },
        );
      view = {
        prepare: () => runtime.relay.prepareWindow(principal, session),
        state: () => runtime.relay.state(principal, session),
      };
      return driveSession(runtime, principal, current, model, { maxWindows, flags, setup });
    },
    { create: false },
  );
}

/** Runs `session`'s windows through `model`, one progress line each, from where it stands. */
async function driveSession(
  runtime: CanonryRuntime,
  principal: Principal,
  session: RelaySessionView,
  model: ModelPort,
  { maxWindows, flags, setup }: { maxWindows: number; flags: RelayFlags; setup: RunSetup },
): Promise<RunSummary> {
  const id = session.session.session_id;
  // The windows a session of sections has still to go: the ones done, the ones left, and each
  // revision window it runs on the way.
  const sectioned = session.session.remaining.length > 0;
  const planned = session.windows + session.goal_state.remaining.length;
  const out = setup.linesTo ?? process.stderr;
  let revisionWindows = 0;
  const progress = (w: CompletedWindow) => {
    if (w.kind === 'revision') revisionWindows++;
    const total = sectioned ? planned + revisionWindows : undefined;
    if (flags.json !== true || setup.linesTo === undefined)
      out.write(`${figuresLine(figuresOf(w), total)}\n`);
  };
  const run = await runtime.relay.run(principal, id, model, { maxWindows, onWindow: progress });
  return {
    session_id: id,
    project: principal.project,
    status: run.status,
    windows: run.windows.map(figuresOf),
  };
}

/** `1 window`, `3 windows` (`2 more windows`). */
const windowsCount = (n: number, more = '') => `${n} ${more}window${n === 1 ? '' : 's'}`;

function addRelayFlags(command: Command, { url = true } = {}): Command {
  command.option(...RELAY_FLAGS.token).option(...RELAY_FLAGS.project);
  if (url) command.option(...RELAY_FLAGS.url).option(...RELAY_FLAGS.timeout);
  return command
    .option(...RELAY_FLAGS.data)
    .option(...RELAY_FLAGS.db)
    .option('--json', 'print JSON');
}

/**
 * `canonry relay run|resume|verify|show`: state relayed across context windows (CRP-030) from the command
 * line — a session run through a model, its HMAC chain checked against the journal, its windows
 * and latest state shown.
 */
export function relayCommand(program: Command): void {
  const relay = program
    .command('relay')
    .description('state relayed across context windows (CRP-030): run, resume, verify, show');

  addRelayFlags(
    relay
      .command('run')
      .description('start a relay session and run it through a model, a line per window')
      .requiredOption('--mode <mode>', 'DOCUMENT, CONVERSATION, TOOL or AGENTIC')
      .requiredOption('--objective <text>', 'what the session is for')
      .option(
        '--sections <list>',
        'comma-separated sections, sub-tasks or questions to get through',
      )
      .option('--model <spec>', 'scripted (default), replay:FILE (JSONL recordings) or openai:URL')
      .option('--model-name <name>', 'the model an openai: server runs (CANONRY_MODEL)')
      .option('--max-windows <n>', 'stop after this many windows (default 64)')
      .option('--max-revisions <n>', 'a decision revised this often goes to a person (default 3)')
      .option('--air-mode <mode>', 'AIR feedback: off, passive, adaptive (default) or aggressive')
      .option(
        '--air-iap-budget <tokens>',
        "the most tokens one window's quality packet may take (512)",
      ),
    { url: false },
  ).action(async (flags: RunFlags) => {
    const summary = await runRelay(flags);
    emit(flags.json === true, summary, () => [
      `session ${summary.session_id} (project ${summary.project}) ${summary.status} after ${windowsCount(summary.windows.length)}`,
    ]);
    if (summary.status === 'halted') process.exitCode = EXIT.FAILED;
  });

  addRelayFlags(
    relay
      .command('resume')
      .argument('<session>', 'the relay session id (rs-…)')
      .description('run an active session on from its next window, a line per window')
      .option('--model <spec>', 'scripted (default), replay:FILE (JSONL recordings) or openai:URL')
      .option('--model-name <name>', 'the model an openai: server runs (CANONRY_MODEL)')
      .option('--max-windows <n>', 'stop after this many more windows (default 64)'),
    { url: false },
  ).action(async (session: string, flags: ResumeFlags) => {
    const summary = await resumeRelay(session, flags);
    emit(flags.json === true, summary, () => [
      `session ${summary.session_id} (project ${summary.project}) ${summary.status} after ${windowsCount(summary.windows.length, 'more ')}`,
    ]);
    if (summary.status === 'halted') process.exitCode = EXIT.FAILED;
  });

  addRelayFlags(
    relay
      .command('verify')
      .argument('<session>', 'the relay session id (rs-…)')
      .description("check a session's HMAC chain and every CSO against the journal"),
  ).action(async (session: string, flags: RelayFlags) => {
    const report = await withRelayInvoker(flags, (invoker) => relayCalls(invoker).verify(session));
    emit(flags.json === true, report, () => [
      report.ok
        ? `ok: ${report.session_id}: ${report.windows} windows, every CSO sealed, chained and served as journaled`
        : `broken: ${report.session_id} window ${report.broken!.window_number} (${report.broken!.reason}): ${report.broken!.detail}`,
    ]);
    if (!report.ok) process.exitCode = EXIT.FAILED;
  });

  addRelayFlags(
    relay
      .command('show')
      .argument('<session>', 'the relay session id (rs-…)')
      .description('a session, its windows and its latest CSO'),
  ).action(async (session: string, flags: RelayFlags) => {
    const view = await withRelayInvoker(flags, async (invoker) => {
      const calls = relayCalls(invoker);
      return { state: await calls.state(session), windows: await calls.windows(session) };
    });
    emit(flags.json === true, view, () => showLines(view.state, view.windows));
  });
}
