import pino, { type Logger } from 'pino';

/** A request as the log shows it. */
interface LoggedRequest {
  readonly method?: string;
  readonly url?: string;
  readonly ip?: string;
  readonly socket?: { readonly remoteAddress?: string };
}

/**
 * The path of a request URL without its query string: queries may carry what should never reach a
 * log (a token pasted into a link, an idempotency key), and the route plus the method say what ran.
 */
export function loggedPath(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const at = url.indexOf('?');
  return at === -1 ? url : `${url.slice(0, at)}?[redacted]`;
}

/**
 * canonry's logger: pino at `level`, with the Authorization and cookie headers redacted and request
 * URLs logged without their query strings. The server, the runtime's background writers and the
 * process-level handlers of `canonry serve` share it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: LoggedRequest) => ({
          method: req.method,
          url: loggedPath(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
        err: pino.stdSerializers.err,
      },
    },
    destination ?? pino.destination(2),
  );
}
