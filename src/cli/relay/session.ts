import type { CanonryRuntime } from '../../app/index.js';
import type { Principal } from '../../canon/index.js';
import { parseProject } from '../../journal/index.js';
import {
  authorizeToken,
  canonPrincipal,
  type Invoker,
  localInvoker,
  operationNamed,
  principalInvoker,
  refuseReservedProject,
} from '../../operations/index.js';
import type {
  ChainReport,
  CompletedWindow,
  RelaySessionView,
  RelayWindowRecord,
} from '../../relay/index.js';
import { env } from '../io.js';
import { type RemoteFlags, remoteOf, TIMEOUT_FLAG } from '../remote.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';

/**
 * Who `canonry relay …` acts as, and through what. With `--token` (or CANONRY_TOKEN): that token's
 * principal, in process against `--data` or over HTTP with `--url`. Without one, against the data
 * directory: its operator (whoever can read the directory can issue themselves a token anyway),
 * as the principal `operator` of `--project` (default `relay`).
 */
export interface RelayFlags extends RuntimeFlags, RemoteFlags {
  json?: boolean;
}

/** The project `canonry relay` and `canonry demo relay` use unless told otherwise. */
export const RELAY_PROJECT = 'relay';
export const OPERATOR = 'operator';

export const RELAY_FLAGS = {
  token: ['--token <token>', 'bearer token to act as (CANONRY_TOKEN); default: the operator'],
  project: ['--project <name>', `the project (default: the token's, else ${RELAY_PROJECT})`],
  url: ['--url <server>', 'a running canonry serve (CANONRY_URL; needs --token and --project)'],
  timeout: TIMEOUT_FLAG,
  data: DATA_FLAG,
  db: DB_FLAG,
} as const;

const projectOf = (flags: RelayFlags) => flags.project ?? env('CANONRY_PROJECT') ?? RELAY_PROJECT;

/** The principal a local run acts as (a token's, at least an agent; else the operator). */
export async function localPrincipal(
  runtime: CanonryRuntime,
  flags: RelayFlags,
): Promise<Principal> {
  const token = flags.token ?? env('CANONRY_TOKEN');
  if (token)
    return canonPrincipal(await authorizeToken(runtime.tokens, token, flags.project, 'agent'));
  return { id: OPERATOR, project: operatorProject(flags), role: 'agent' };
}

/**
 * The project a run without a token acts in as the operator, checked (INVALID_PROJECT, FORBIDDEN
 * for the kernel's own) without opening anything, so a bad one is refused before the data
 * directory is made.
 */
export function operatorProject(flags: RelayFlags): string {
  const project = parseProject(projectOf(flags));
  refuseReservedProject(project);
  return project;
}

/** Runs `work` with an invoker: over `--url`, or in process against the data directory. */
export async function withRelayInvoker<T>(
  flags: RelayFlags,
  work: (invoker: Invoker) => Promise<T>,
): Promise<T> {
  const remote = remoteOf(flags);
  if (remote !== undefined) return work(remote.invoker);
  const token = flags.token ?? env('CANONRY_TOKEN');
  return withRuntime(
    flags,
    async (runtime) => {
      if (token) {
        return work(
          localInvoker(
            runtime,
            token,
            flags.project === undefined ? {} : { project: flags.project },
          ),
        );
      }
      const project = projectOf(flags);
      refuseReservedProject(project);
      return work(
        principalInvoker(runtime, { id: OPERATOR, project, role: 'agent', token_id: '' }),
      );
    },
    { create: false },
  );
}

/** The relay's operations, typed, over an invoker. */
export function relayCalls(invoker: Invoker) {
  const call = (name: string, input: Parameters<Invoker['invoke']>[1]) =>
    invoker.invoke(operationNamed(name), input);
  return {
    state: (session: string) =>
      call('getRelaySession', { params: { session } }) as Promise<RelaySessionView>,
    verify: (session: string) =>
      call('verifyRelaySession', { params: { session } }) as Promise<ChainReport>,
    /** Every window of the session, a page at a time (at most `max`). */
    async windows(session: string, max = 1_000): Promise<RelayWindowRecord[]> {
      const out: RelayWindowRecord[] = [];
      while (out.length < max) {
        const page = (await call('listRelayWindows', {
          params: { session },
          query: { after: String(out.length), limit: '100' },
        })) as { windows: RelayWindowRecord[] };
        out.push(...page.windows);
        if (page.windows.length < 100) break;
      }
      return out;
    },
  };
}

/** One window's figures, as `relay run --json` and the progress lines give them. */
export interface WindowFigures {
  readonly window_number: number;
  readonly kind: 'work' | 'revision';
  readonly status: CompletedWindow['status'];
  readonly preservation: number;
  readonly repaired: number;
  readonly facts: number;
  readonly decisions: number;
  readonly revisions: number;
  readonly revision_target: string | null;
  /** CRP-018: the DPE's 6-gram repetition ratio, fabrications, completeness; AIR's session IQ and
   * the tokens of the IAP the next window carries (null when the window was not relayed). */
  readonly repetition: number | null;
  readonly fabrications: number | null;
  readonly completeness: number | null;
  readonly session_iq: number | null;
  readonly iap_tokens: number | null;
}

export function figuresOf(w: CompletedWindow | RelayWindowRecord): WindowFigures {
  const revised = w.revisions.filter((r) => r.revised_by !== null);
  return {
    window_number: w.window_number,
    kind: w.kind,
    status: 'status' in w ? w.status : 'relayed',
    preservation: w.verification.preservation,
    repaired: w.verification.repaired.length,
    facts: w.cso?.established_facts.length ?? 0,
    decisions: w.cso?.decisions.length ?? 0,
    revisions: revised.length,
    revision_target: revised[0]?.target ?? null,
    repetition: w.signals?.repetition.ratio ?? null,
    fabrications: w.signals?.fabrication_count ?? null,
    completeness: w.signals?.completeness.score ?? null,
    session_iq: w.quality?.state.session_iq ?? null,
    iap_tokens: w.quality?.tokens ?? null,
  };
}

/** `window 3/5 work      preservation 0.50; repaired=1  facts 4  decisions 3  revisions 0`. */
export function figuresLine(f: WindowFigures, total?: number): string {
  const shown = (Math.floor(f.preservation * 100 + 1e-9) / 100).toFixed(2);
  const preservation = f.repaired > 0 ? `${shown}; repaired=${f.repaired}` : shown;
  const place = total === undefined ? `${f.window_number}` : `${f.window_number}/${total}`;
  return [
    `window ${place}`.padEnd(12),
    f.kind.padEnd(9),
    `preservation ${preservation}`.padEnd(30),
    `facts ${f.facts}`.padEnd(9),
    `decisions ${f.decisions}`.padEnd(13),
    `revisions ${f.revisions}${f.revision_target ? ` (${f.revision_target})` : ''}`,
    ...(f.repetition === null
      ? []
      : [
          ` repetition ${(f.repetition * 100).toFixed(1)}%`,
          `fabrications ${f.fabrications}`,
          `completeness ${f.completeness!.toFixed(2)}`,
          `IQ ${f.session_iq === null ? '–' : Math.round(f.session_iq)}`,
          `IAP ${f.iap_tokens} tokens`,
        ]),
    f.status === 'relayed' ? '' : ` ${f.status.toUpperCase()}`,
  ]
    .join(' ')
    .trimEnd();
}
