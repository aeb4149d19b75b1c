import { CanonryError, ERROR_CODES, type ErrorCode } from '../core/index.js';
import type { Invoker, Operation, OperationInput } from './operation.js';

/** Responses larger than this are refused (a server answers far less; a wrong URL might not). */
const MAX_RESPONSE = 64 * 1024 * 1024;

/** How long one call may take, answer read whole, unless the caller says otherwise. */
export const DEFAULT_REMOTE_TIMEOUT_MS = 120_000;

/** How a remote invoker calls the server. */
export interface RemoteOptions {
  /** The most one call may take, from sending it to its answer read whole (default 120 s). */
  readonly timeoutMs?: number;
  /** What a refused URL is called in the message: `--url` (default) or `CANONRY_URL`. */
  readonly urlName?: string;
}

/**
 * The answer's body as text, refused once past `max` bytes: read as it arrives, so a wrong URL that
 * streams without end is cut off at the bound, not held whole first.
 */
async function boundedText(response: Response, max: number, origin: string): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > max) {
      await reader.cancel().catch(() => undefined);
      throw new CanonryError('SERVER_UNREACHABLE', `${origin} answered over ${max} bytes`, {
        url: origin,
      });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** Whether a fetch failed because its signal's time ran out. */
const timedOut = (err: unknown) =>
  (err as { name?: unknown } | null)?.name === 'TimeoutError' ||
  (err as { cause?: { name?: unknown } } | null)?.cause?.name === 'TimeoutError';

/** `/v1/projects/:project/proposals/:id` with values, each percent-encoded. */
export function operationPath(
  op: Operation,
  project: string,
  params: Readonly<Record<string, string>>,
): string {
  return op.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = name === 'project' ? project : params[name];
    if (value === undefined) {
      throw new CanonryError('INVALID_ARGUMENT', `${name} is required`, { field: name });
    }
    // Percent-encoding leaves `.` and `..` as they are, and a URL resolves them: the call would go
    // to another route (the server checks the role there too, but it is not the one asked for).
    if (value === '' || value === '.' || value === '..') {
      throw new CanonryError('INVALID_ARGUMENT', `${name} must not be empty, . or ..`, {
        field: name,
      });
    }
    return encodeURIComponent(value);
  });
}

/**
 * A server's error envelope as the typed error it stands for (a code this client does not know
 * stays INTERNAL, with the server's message). An answer without canonry's envelope is no canonry's
 * answer: SERVER_UNREACHABLE, as for one that is not JSON.
 */
function remoteError(status: number, body: unknown, origin: string): CanonryError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } })
    ?.error;
  if (typeof error?.code !== 'string') {
    return new CanonryError(
      'SERVER_UNREACHABLE',
      `${origin} answered ${status} without canonry's error envelope: is it canonry?`,
      { url: origin, status },
    );
  }
  const code =
    typeof error?.code === 'string' && Object.hasOwn(ERROR_CODES, error.code)
      ? (error.code as ErrorCode)
      : 'INTERNAL';
  const message =
    typeof error?.message === 'string' ? error.message : `the server answered ${status}`;
  const details =
    typeof error?.details === 'object' && error.details !== null
      ? (error.details as Record<string, unknown>)
      : undefined;
  return new CanonryError(code, message, details);
}

/**
 * Runs operations over HTTP against a running `canonry serve` as the principal of `token`: the same
 * route, so the same principal, checks and answers as in process. The client cannot read the
 * project from a token, so it is given.
 */
export function remoteInvoker(
  baseUrl: string,
  token: string,
  project: string,
  options: RemoteOptions = {},
): Invoker {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  const name = options.urlName ?? '--url';
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new CanonryError('INVALID_ARGUMENT', `${name} ${baseUrl} is not a URL`, {
      field: 'url',
    });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new CanonryError('INVALID_ARGUMENT', `${name}: the server URL must be http: or https:`, {
      field: 'url',
    });
  }
  // The token is the credential; a password in the URL would be echoed wherever the URL is.
  if (base.username !== '' || base.password !== '') {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${name}: the server URL must not carry a user name or password (the token is the credential)`,
      { field: 'url' },
    );
  }
  return {
    async invoke(op: Operation, input: OperationInput) {
      const url = new URL(operationPath(op, project, input.params ?? {}), base);
      for (const [name, value] of Object.entries(input.query ?? {})) {
        url.searchParams.set(name, value);
      }
      const hasBody = input.body !== undefined;
      const signal = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: op.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
          },
          ...(hasBody ? { body: JSON.stringify(input.body) } : {}),
          signal,
        });
        text = await boundedText(response, MAX_RESPONSE, base.origin);
      } catch (err) {
        if (err instanceof CanonryError) throw err;
        if (timedOut(err) || signal.aborted) {
          throw new CanonryError(
            'SERVER_UNREACHABLE',
            `${base.origin} did not answer within ${timeoutMs / 1000} s`,
            { url: base.origin, timeout_s: timeoutMs / 1000 },
          );
        }
        // The cause's code only: its text may quote the whole request URL.
        const cause = (err as { cause?: { code?: unknown } }).cause;
        const reason = typeof cause?.code === 'string' ? cause.code : 'connection failed';
        throw new CanonryError('SERVER_UNREACHABLE', `cannot reach ${base.origin} (${reason})`, {
          url: base.origin,
        });
      }
      let body: unknown;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        throw new CanonryError(
          'SERVER_UNREACHABLE',
          `${base.origin} did not answer JSON (${response.status}): is it canonry?`,
          { url: base.origin, status: response.status },
        );
      }
      if (!response.ok) throw remoteError(response.status, body, base.origin);
      return body;
    },
    close: async () => undefined,
  };
}
