import type { Command } from 'commander';
import { CanonryError, isCanonryError } from '../../core/index.js';
import {
  type Invoker,
  localInvoker,
  OPERATIONS,
  type Operation,
  type OperationInput,
  principalInvoker,
  refuseReservedProject,
} from '../../operations/index.js';
import { addOperationFlags, type FieldFlag, inputFromFlags } from '../canon/options.js';
import { NOTES, RENDER } from '../canon/render.js';
import { EXIT, emit } from '../io.js';
import { type RemoteFlags, remoteOf, TIMEOUT_FLAG } from '../remote.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';
import { forTerminal } from '../terminal.js';

interface CanonFlags extends RuntimeFlags, RemoteFlags {
  json?: boolean;
}

/** What a subcommand's inputs need beyond the generated flags. */
interface Custom {
  readonly options?: (command: Command) => void;
  /** Fields whose flag values reach `input` as given, to be read there. */
  readonly raw?: readonly string[];
  readonly input?: (
    input: { params: Record<string, string>; query: Record<string, string>; body: unknown },
    values: Record<string, unknown>,
  ) => OperationInput;
}

const list = (value: unknown): string[] =>
  String(value)
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** The few commands whose flags say more than a body field (kept from before the generated ones). */
/** Checks whose report says `ok: false` when something failed: the command exits 1 then. */
const FAIL_WHEN_NOT_OK = new Set(['verifyEvents']);

interface PagedReport {
  readonly ok: boolean;
  readonly checked: number;
  readonly verified: number;
  readonly failed: readonly unknown[];
  readonly next: number | null;
}

/**
 * Checks a server answers a bounded page of (`next`: where the following page starts). Given no
 * `--after` or `--limit`, the command asks for every page in turn and prints one report of them all,
 * so `events verify` still checks every stored event and exits 1 when any fails.
 */
const ALL_PAGES = new Set(['verifyEvents']);

async function allPages(
  invoker: Invoker,
  op: Operation,
  input: OperationInput,
): Promise<PagedReport> {
  let report = (await invoker.invoke(op, input)) as PagedReport;
  while (report.next !== null) {
    const page = (await invoker.invoke(op, {
      ...input,
      query: { ...input.query, after: String(report.next) },
    })) as PagedReport;
    report = {
      ...page,
      ok: report.ok && page.ok,
      checked: report.checked + page.checked,
      verified: report.verified + page.verified,
      failed: [...report.failed, ...page.failed],
    };
  }
  return report;
}

const CUSTOM: Readonly<Record<string, Custom>> = {
  postMessage: {
    options: (c) =>
      c.option(
        '--personal',
        'a personal message: only you read or cite it, and its notes stay yours',
      ),
    input: (input, values) => {
      const body = input.body as Record<string, unknown>;
      if (values.personal === true) body.visibility = 'personal';
      if (body.text === undefined) {
        throw new CanonryError(
          'INVALID_ARGUMENT',
          'give the message as the argument or as --text (exactly one)',
        );
      }
      return input;
    },
  },
  restoreObject: {
    // `--version 3` is a version number, anything else a hash (as the server names them).
    raw: ['version'],
    input: (input) => {
      const body = input.body as Record<string, unknown>;
      const version = body.version;
      if (typeof version === 'string' && !/^\d{1,15}$/.test(version)) {
        delete body.version;
        body.version_hash = version;
      } else if (typeof version === 'string') {
        body.version = Number(version);
      }
      return input;
    },
  },
  putSubjects: {
    options: (c) =>
      c
        .option('--title <title>', 'the title its notes get')
        .option('--type <object_type>', 'decision, fact, preference, constraint, …')
        .option('--keywords <list>', 'comma-separated words or phrases that name it')
        .option('--tags <list>', 'comma-separated tags (identity, publication, budget, …)'),
    input: (input, values) => {
      const body = input.body as Record<string, unknown>;
      const id = body.object_id as string | undefined;
      delete body.object_id;
      if (id !== undefined && body.subjects === undefined) {
        body.subjects = {
          [id]: {
            title: values.title,
            object_type: values.type,
            keywords: values.keywords === undefined ? undefined : list(values.keywords),
            ...(values.tags === undefined ? {} : { tags: list(values.tags) }),
          },
        };
      }
      return input;
    },
  },
};

/** The invoker `flags` ask for: a running server (`--url`) or the data directory. */
async function withInvoker<T>(
  flags: CanonFlags,
  work: (invoker: Invoker) => Promise<T>,
  operator = false,
): Promise<T> {
  const remote = remoteOf(flags);
  if (remote !== undefined) return work(remote.invoker);
  const token = flags.token ?? process.env.CANONRY_TOKEN;
  if (!token && operator && flags.project !== undefined) {
    // The data directory's operator (whoever reads the directory can issue themselves a token).
    const project = flags.project;
    refuseReservedProject(project);
    return withRuntime(
      flags,
      (runtime) =>
        work(principalInvoker(runtime, { id: 'operator', project, role: 'owner', token_id: '' })),
      { create: false },
    );
  }
  // A token is valid only in a data directory that exists: none is made to be refused in
  // (KEYRING_MISSING names the directory), and without a token nothing is opened at all.
  if (!token) throw new CanonryError('UNAUTHENTICATED', 'a valid bearer token is required');
  return withRuntime(
    flags,
    (runtime) =>
      work(
        localInvoker(runtime, token, flags.project === undefined ? {} : { project: flags.project }),
      ),
    { create: false },
  );
}

/** A body field's error names the flag it came from. */
function withFlag(err: unknown, flags: readonly FieldFlag[]): unknown {
  if (!isCanonryError(err)) return err;
  const field = (err.details as { field?: unknown } | undefined)?.field;
  const flag = flags.find((f) => f.field === field);
  if (!flag) return err;
  return new CanonryError(err.code, `${err.message} (${flag.flag.split(' ')[0]})`, err.details);
}

/**
 * `canonry canon <command>` for one operation, its options generated from the operation. `skip`
 * drops leading words of its command (a top-level command such as `events` adds them itself);
 * `operator` lets it run without a token against the data directory, as its operator.
 */
export function operationCommand(
  canon: Command,
  parents: Map<string, Command>,
  op: Operation,
  { skip = 0, operator = false }: { skip?: number; operator?: boolean } = {},
): void {
  const binding = op.cli!;
  const words = binding.command.split(' ').slice(skip);
  const positional = words.findIndex((w) => w.startsWith('<') || w.startsWith('['));
  const path = positional === -1 ? words : words.slice(0, positional);
  let parent = canon;
  for (const word of path.slice(0, -1)) {
    let next = parents.get(word);
    if (!next) {
      next = parent.command(word).description(`${word} commands`);
      parents.set(word, next);
    }
    parent = next;
  }
  const spec = [path.at(-1)!, ...(positional === -1 ? [] : words.slice(positional))].join(' ');
  const command = parent.command(spec).description(binding.description);
  const flags = addOperationFlags(command, op);
  const custom = CUSTOM[op.operationId];
  custom?.options?.(command);
  command
    .option('--token <token>', 'bearer token to act as (CANONRY_TOKEN)')
    .option(
      '--project <name>',
      "the project (must be the token's; default: the token's; required with --url)",
    )
    .option('--url <server>', 'run against a running canonry serve (CANONRY_URL) instead of --data')
    .option(...TIMEOUT_FLAG)
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON')
    .action(async (...all: unknown[]) => {
      const cmd = all.at(-1) as Command;
      const values = cmd.opts() as CanonFlags & Record<string, unknown>;
      const args = all.slice(0, -2) as string[];
      const generic = inputFromFlags(op, flags, values, args, custom?.raw);
      const input = custom?.input ? custom.input(generic, values) : generic;
      const paged =
        ALL_PAGES.has(op.operationId) &&
        input.query?.after === undefined &&
        input.query?.limit === undefined;
      const result = await withInvoker(
        values,
        (invoker) => (paged ? allPages(invoker, op, input) : invoker.invoke(op, input)),
        operator,
      ).catch((err: unknown) => {
        throw withFlag(err, flags);
      });
      const render = RENDER[op.operationId];
      const json = values.json === true || !render;
      const notes = NOTES[op.operationId];
      const noted = !json && notes ? notes(result, input.query ?? {}) : [];
      if (noted.length > 0) process.stderr.write(`${forTerminal(noted.join('\n'))}\n`);
      emit(json, result, () => render!(result));
      if (FAIL_WHEN_NOT_OK.has(op.operationId) && (result as { ok?: unknown }).ok === false)
        process.exitCode = EXIT.FAILED;
    });
}

/**
 * `canonry canon …`: every project operation as a command, generated from the operation table,
 * acting as the principal of a bearer token (`canonry tokens create`) against the data directory or,
 * with `--url`, a running server — the same checks, roles and answers either way.
 */
export function canonCommand(program: Command): void {
  // `canon restore … --version <n>` must reach the subcommand: the root's own `--version` is only
  // recognised before a subcommand name (as `canonry --version` is used anyway).
  program.enablePositionalOptions();
  const canon = program
    .command('canon')
    .description(
      'the governed canon of a project, as the principal of --token (or CANONRY_TOKEN), locally or against --url',
    );
  const parents = new Map<string, Command>();
  for (const op of OPERATIONS) if (op.cli) operationCommand(canon, parents, op);
}
