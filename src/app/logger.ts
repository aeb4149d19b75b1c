/** The little of a logger the runtime's background work needs (pino's Logger fits). */
export interface RuntimeLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** A logger that writes errors to stderr and drops the rest (library use without a logger). */
export const STDERR_LOGGER: RuntimeLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: (details, message) => {
    const err = (details as { err?: unknown }).err;
    process.stderr.write(`canonry: ${message}${err ? `: ${String(err)}` : ''}\n`);
  },
};
