import { CanonryError } from '../core/index.js';
import { DEFAULT_REMOTE_TIMEOUT_MS, type Invoker, remoteInvoker } from '../operations/index.js';
import { env } from './io.js';

/** The flags that point a command at a running `canonry serve` instead of a data directory. */
export interface RemoteFlags {
  url?: string;
  token?: string;
  project?: string;
  timeout?: string;
}

/** A server to call: its invoker, and the project named for it. */
export interface Remote {
  readonly invoker: Invoker;
  readonly project: string;
}

/** `--timeout`, for every command that takes `--url`. */
export const TIMEOUT_FLAG = [
  '--timeout <seconds>',
  `with --url, the most one call may take (CANONRY_TIMEOUT, else ${DEFAULT_REMOTE_TIMEOUT_MS / 1000})`,
] as const;

/** The longest a call may be given: a day. */
const MAX_TIMEOUT_S = 86_400;

/** `--timeout` (or CANONRY_TIMEOUT) in milliseconds: whole seconds, 1 to a day. */
function timeoutMs(flags: RemoteFlags): number {
  const given = flags.timeout ?? env('CANONRY_TIMEOUT');
  if (given === undefined) return DEFAULT_REMOTE_TIMEOUT_MS;
  const seconds = /^\d{1,6}$/.test(given.trim()) ? Number(given.trim()) : Number.NaN;
  if (!(seconds >= 1 && seconds <= MAX_TIMEOUT_S)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${flags.timeout !== undefined ? '--timeout' : 'CANONRY_TIMEOUT'} must be whole seconds from 1 to ${MAX_TIMEOUT_S} (got ${JSON.stringify(given.slice(0, 40))})`,
      { field: 'timeout' },
    );
  }
  return seconds * 1000;
}

/**
 * The server `flags` point at (`--url` or CANONRY_URL), with the token and project a call there
 * needs; undefined when none is named, so the command runs against the data directory.
 */
export function remoteOf(flags: RemoteFlags): Remote | undefined {
  const url = flags.url ?? env('CANONRY_URL');
  if (url === undefined) return undefined;
  const token = flags.token ?? env('CANONRY_TOKEN');
  if (!token) {
    throw new CanonryError(
      'UNAUTHENTICATED',
      'with --url, a token is required (--token or CANONRY_TOKEN)',
    );
  }
  const project = flags.project ?? env('CANONRY_PROJECT');
  if (!project) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'with --url, name the project with --project (or CANONRY_PROJECT)',
      { field: 'project' },
    );
  }
  return {
    invoker: remoteInvoker(url, token, project, {
      timeoutMs: timeoutMs(flags),
      urlName: flags.url !== undefined ? '--url' : 'CANONRY_URL',
    }),
    project,
  };
}
