import { resolve } from 'node:path';
import { CanonryError } from '../core/index.js';

/** Everything a runtime is built from. */
export interface CanonryConfig {
  /** The data directory: keys, registered protocols, the embedded database. */
  readonly dataDir: string;
  /** `postgres://…` for PostgreSQL; undefined for the embedded SQLite file in the data directory. */
  readonly db: string | undefined;
  readonly port: number;
  readonly host: string;
  /** pino level, or 'silent'. */
  readonly logLevel: string;
}

/** Defaults: `./.canonry`, port 7070 on 127.0.0.1. */
export const DEFAULT_CONFIG: CanonryConfig = {
  dataDir: './.canonry',
  db: undefined,
  port: 7070,
  host: '127.0.0.1',
  logLevel: 'info',
};

/** Overrides as they arrive from flags (strings) or code. */
export interface ConfigInput {
  readonly dataDir?: string | undefined;
  readonly db?: string | undefined;
  readonly port?: string | number | undefined;
  readonly host?: string | undefined;
  readonly logLevel?: string | undefined;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Resolves the configuration: explicit input first, then `CANONRY_DATA`, `CANONRY_DB`, `CANONRY_PORT`,
 * `CANONRY_HOST`, `CANONRY_LOG_LEVEL`, then the defaults. Bad values throw INVALID_ARGUMENT.
 */
export function resolveConfig(
  input: ConfigInput = {},
  env: NodeJS.ProcessEnv = process.env,
): CanonryConfig {
  const dataDir = input.dataDir ?? env.CANONRY_DATA ?? DEFAULT_CONFIG.dataDir;
  if (typeof dataDir !== 'string' || dataDir.trim() === '') {
    throw new CanonryError('INVALID_ARGUMENT', 'the data directory must be a non-empty path');
  }
  const host = input.host ?? env.CANONRY_HOST ?? DEFAULT_CONFIG.host;
  const logLevel = input.logLevel ?? env.CANONRY_LOG_LEVEL ?? DEFAULT_CONFIG.logLevel;
  if (!LEVELS.includes(logLevel)) {
    throw new CanonryError('INVALID_ARGUMENT', `log level must be one of ${LEVELS.join(', ')}`);
  }
  const db = input.db ?? env.CANONRY_DB;
  return {
    dataDir: resolve(dataDir),
    db: db === undefined || db.trim() === '' ? undefined : db.trim(),
    port: parsePort(input.port ?? env.CANONRY_PORT ?? DEFAULT_CONFIG.port),
    host,
    logLevel,
  };
}

function parsePort(value: string | number): number {
  const text = String(value).trim();
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CanonryError('INVALID_ARGUMENT', `port must be an integer 0–65535, got ${text}`);
  }
  return port;
}
