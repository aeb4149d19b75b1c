import { resolve } from 'node:path';
import { CanonryError } from '../core/index.js';
import { databaseEngine } from '../store/index.js';

/** How long the HTTP server waits for a client, in milliseconds. */
export interface HttpTimeouts {
  /** The whole request, headers and body (Node's `requestTimeout`). */
  readonly requestTimeoutMs: number;
  /** The request headers (Node's `headersTimeout`); at most `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Any socket with no traffic at all. */
  readonly idleTimeoutMs: number;
}

/** A rate limit: at most `max` requests per client in each `windowMs`. */
export interface RateLimit {
  readonly max: number;
  readonly windowMs: number;
}

/** When the journal signs checkpoints: every `every` entries, and `intervalMs` after an unsigned append. */
export interface CheckpointPolicy {
  readonly every: number;
  readonly intervalMs: number;
}

/**
 * Where a process takes the appends other processes forward to it while it leads a contended
 * project (PostgreSQL only: `src/journal`, "Forwarded appends").
 */
export interface ForwardConfig {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  /** The `host:port` other processes reach this one at; undefined: as listened. */
  readonly advertise: string | undefined;
  /**
   * `auto`: the wire is TLS keyed by the lease's token unless `host` is a loopback address; `on`:
   * TLS on loopback too (where the loopback is shared, as between the containers of a pod).
   */
  readonly tls: 'auto' | 'on';
}

/** How much of each chain a server verifies before it serves. */
export type VerifyOnStart = 'tail' | 'full';

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
  readonly http: HttpTimeouts;
  /** Per client address on the public `POST /v1/validate`; null when off. */
  readonly validateRateLimit: RateLimit | null;
  /** Threads that evaluate `POST /v1/validate` off the event loop; 0 evaluates in the server's thread. */
  readonly validateWorkers: number;
  /** Live event streams (`GET …/events`) the server holds at once; each principal a sixteenth. */
  readonly eventStreams: number;
  readonly checkpoints: CheckpointPolicy;
  readonly verifyOnStart: VerifyOnStart;
  /** Days the kernel's audit entries are kept before they are pruned; null keeps them forever. */
  readonly auditRetentionDays: number | null;
  /** Browser origins allowed to call the HTTP API (`*` for any); empty: CORS off. */
  readonly corsOrigins: readonly string[];
  /**
   * Whether the runtime runs the evolution coordinator (qualified cognitive events from completed
   * work). Off by default: it signs and journals an event per verdict batch, commit and window.
   */
  readonly evolution: boolean;
  /** Forwarded appends on PostgreSQL; null when off. */
  readonly forward: ForwardConfig | null;
}

/** Defaults: `./.canonry`, port 7070 on 127.0.0.1. */
export const DEFAULT_CONFIG: CanonryConfig = {
  dataDir: './.canonry',
  db: undefined,
  port: 7070,
  host: '127.0.0.1',
  logLevel: 'info',
  http: {
    requestTimeoutMs: 30_000,
    headersTimeoutMs: 10_000,
    keepAliveTimeoutMs: 5_000,
    idleTimeoutMs: 60_000,
  },
  validateRateLimit: { max: 600, windowMs: 60_000 },
  validateWorkers: 1,
  eventStreams: 256,
  checkpoints: { every: 256, intervalMs: 5_000 },
  verifyOnStart: 'tail',
  auditRetentionDays: 30,
  corsOrigins: [],
  evolution: false,
  forward: { host: '127.0.0.1', port: 0, advertise: undefined, tls: 'auto' },
};

/** Overrides as they arrive from flags (strings) or code. */
export interface ConfigInput {
  readonly dataDir?: string | undefined;
  readonly db?: string | undefined;
  readonly port?: string | number | undefined;
  readonly host?: string | undefined;
  readonly logLevel?: string | undefined;
  readonly http?: Partial<HttpTimeouts> | undefined;
  /** `N/<window>` (`600/1m`, `20/10s`) or `off`. */
  readonly validateRateLimit?: string | RateLimit | null | undefined;
  readonly validateWorkers?: string | number | undefined;
  readonly eventStreams?: string | number | undefined;
  readonly checkpoints?: Partial<CheckpointPolicy> | undefined;
  readonly verifyOnStart?: string | undefined;
  /** Days, or `forever`. */
  readonly auditRetentionDays?: string | number | null | undefined;
  /** Origins, or one comma-separated string of them (`https://a.example,https://b.example`, `*`). */
  readonly corsOrigins?: string | readonly string[] | undefined;
  /** `on` / `off` (or a boolean). */
  readonly evolution?: string | boolean | undefined;
  /** `host:port` to listen on for forwarded appends, or `off` (or null). */
  readonly forward?: string | ForwardConfig | null | undefined;
  /** `host:port` other processes reach this one at. */
  readonly forwardAdvertise?: string | undefined;
  /** `auto` or `on`: whether the forwarding wire is TLS on loopback too. */
  readonly forwardTls?: string | undefined;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The environment variable behind each numeric setting. */
const ENV = {
  requestTimeoutMs: 'CANONRY_REQUEST_TIMEOUT_MS',
  headersTimeoutMs: 'CANONRY_HEADERS_TIMEOUT_MS',
  keepAliveTimeoutMs: 'CANONRY_KEEPALIVE_TIMEOUT_MS',
  idleTimeoutMs: 'CANONRY_IDLE_TIMEOUT_MS',
  checkpointEvery: 'CANONRY_CHECKPOINT_EVERY',
  checkpointIntervalMs: 'CANONRY_CHECKPOINT_INTERVAL_MS',
  validateWorkers: 'CANONRY_VALIDATE_WORKERS',
  eventStreams: 'CANONRY_EVENT_STREAMS',
} as const;

function bad(message: string): CanonryError {
  return new CanonryError('INVALID_ARGUMENT', message);
}

/** The name a message gives a setting: its flag when the caller gave it, else its variable. */
function from(given: unknown, flag: string, variable: string): string {
  return given !== undefined ? flag : variable;
}

/**
 * `--db` / `CANONRY_DB`: undefined for the data directory's SQLite file. Its scheme is checked here,
 * before a runtime writes its keys or its data directory. `:memory:` is refused: a data directory
 * is bound to its database (`store.json`), and an in-memory one is gone when the process exits.
 */
function database(given: string | undefined, variable: string | undefined): string | undefined {
  const value = given ?? variable;
  if (value === undefined) return undefined;
  const name = from(given, '--db', 'CANONRY_DB');
  if (typeof value !== 'string') throw bad(`${name} must be a PostgreSQL URL or a path`);
  const db = value.trim();
  if (db === '') return undefined;
  try {
    databaseEngine(db);
  } catch {
    throw bad(`${name} must be postgres://…, sqlite:<path> or a file path`);
  }
  if (db === ':memory:' || db === 'sqlite::memory:') {
    throw bad(
      `${name} may not be :memory:: a data directory is bound to its database, and an in-memory one is gone at exit; name a file or postgres://…`,
    );
  }
  return db;
}

/** A whole number in [min, max] from code, a flag or the environment. */
function integer(value: string | number, name: string, min: number, max: number): number {
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw bad(`${name} must be an integer ${min}–${max}`);
  }
  const text = String(value).trim();
  const n = /^\d{1,12}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw bad(`${name} must be an integer ${min}–${max}, got ${text.slice(0, 40)}`);
  }
  return n;
}

const WINDOW = /^(\d{1,9})\/(\d{0,6})(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** `600/1m` → 600 per minute; `off` → null. */
export function parseRateLimit(value: string | RateLimit | null, name: string): RateLimit | null {
  if (value === null || value === 'off') return null;
  if (typeof value === 'object' && !Array.isArray(value)) {
    return {
      max: integer(value.max, `${name} max`, 1, 1e9),
      windowMs: integer(value.windowMs, `${name} window`, 1, 86_400_000),
    };
  }
  const match = typeof value === 'string' ? WINDOW.exec(value.trim()) : null;
  if (!match) throw bad(`${name} must be N/<window> (e.g. 600/1m, 20/10s) or off`);
  const windowMs = Number(match[2] || '1') * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  return {
    max: integer(match[1]!, `${name} max`, 1, 1e9),
    windowMs: integer(windowMs, `${name} window`, 1, 86_400_000),
  };
}

/** A group of settings from a library caller: an object when given at all. */
function group<T>(value: T | undefined, name: string): T | undefined {
  if (
    value !== undefined &&
    (typeof value !== 'object' || value === null || Array.isArray(value))
  ) {
    throw bad(`${name} must be an object`);
  }
  return value;
}

function timeouts(given: Partial<HttpTimeouts> | undefined, env: NodeJS.ProcessEnv): HttpTimeouts {
  const input = group(given, 'http');
  const pick = (key: keyof HttpTimeouts): number =>
    integer(
      input?.[key] ?? env[ENV[key]] ?? DEFAULT_CONFIG.http[key],
      input?.[key] !== undefined ? key : ENV[key],
      1,
      86_400_000,
    );
  const http = {
    requestTimeoutMs: pick('requestTimeoutMs'),
    headersTimeoutMs: pick('headersTimeoutMs'),
    keepAliveTimeoutMs: pick('keepAliveTimeoutMs'),
    idleTimeoutMs: pick('idleTimeoutMs'),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw bad('the headers timeout must not exceed the request timeout');
  }
  return http;
}

function checkpointPolicy(
  given: Partial<CheckpointPolicy> | undefined,
  env: NodeJS.ProcessEnv,
): CheckpointPolicy {
  const input = group(given, 'checkpoints');
  return {
    every: integer(
      input?.every ?? env[ENV.checkpointEvery] ?? DEFAULT_CONFIG.checkpoints.every,
      ENV.checkpointEvery,
      1,
      1_000_000,
    ),
    intervalMs: integer(
      input?.intervalMs ?? env[ENV.checkpointIntervalMs] ?? DEFAULT_CONFIG.checkpoints.intervalMs,
      ENV.checkpointIntervalMs,
      10,
      86_400_000,
    ),
  };
}

function retention(value: string | number | null, name: string): number | null {
  if (value === null || value === 'forever') return null;
  return integer(value, name, 1, 36_500);
}

function onOff(value: string | boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') throw bad('CANONRY_EVOLUTION must be on or off');
  const text = value.trim().toLowerCase();
  if (text === 'on' || text === 'true' || text === '1') return true;
  if (text === 'off' || text === 'false' || text === '0' || text === '') return false;
  throw bad(`CANONRY_EVOLUTION must be on or off, got ${text.slice(0, 40)}`);
}

/** A host name, an IPv4 address or a bare IPv6 address (as `listen` takes it). */
const HOST = /^(?:[0-9a-fA-F:.]{2,45}|[A-Za-z0-9.-]{1,253})$/;

const HOST_PORT = /^(?:\[([0-9a-fA-F:.]{2,45})\]|([A-Za-z0-9.-]{1,253})):(\d{1,5})$/;

/** `host:port` (`[v6]:port`), the port within `min`–65535. */
function hostPort(value: string, name: string, min: number): { host: string; port: number } {
  const match = HOST_PORT.exec(value.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port < min || port > 65_535) {
    throw bad(`${name} must be host:port (or [v6]:port), got ${value.trim().slice(0, 80)}`);
  }
  return { host: (match[1] ?? match[2])!, port };
}

function forwarding(
  listen: string | ForwardConfig | null | undefined,
  advertise: string | undefined,
  tls: string | undefined,
): ForwardConfig | null {
  if (listen === null) return null;
  if (typeof listen === 'object') {
    // A library caller's object is checked as its text would be: the same rules, one place.
    const { host, port } = listen as Partial<ForwardConfig>;
    if (typeof host !== 'string' || typeof port !== 'number' || !Number.isInteger(port)) {
      throw bad('forward must be { host: string, port: integer } or host:port');
    }
    return forwarding(
      `${host.includes(':') ? `[${host}]` : host}:${port}`,
      listen.advertise ?? advertise,
      listen.tls ?? tls,
    );
  }
  if (typeof listen !== 'string' && listen !== undefined) {
    throw bad('forward must be host:port, off, or { host, port }');
  }
  if (listen !== undefined && listen.trim().toLowerCase() === 'off') return null;
  const at =
    listen === undefined || listen.trim() === ''
      ? DEFAULT_CONFIG.forward!
      : hostPort(listen, 'CANONRY_FORWARD', 0);
  const wire = forwardTls(tls);
  if (typeof advertise !== 'string' && advertise !== undefined) {
    throw bad('forward advertise must be host:port');
  }
  if (advertise === undefined || advertise.trim() === '')
    return { host: at.host, port: at.port, advertise: undefined, tls: wire };
  hostPort(advertise, 'CANONRY_FORWARD_ADVERTISE', 1);
  return { host: at.host, port: at.port, advertise: advertise.trim(), tls: wire };
}

/** `auto` (the default) or `on`; never off: off loopback the wire is always TLS. */
function forwardTls(value: string | undefined): 'auto' | 'on' {
  if (typeof value !== 'string' && value !== undefined) {
    throw bad('CANONRY_FORWARD_TLS must be auto or on');
  }
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'auto') return 'auto';
  if (text === 'on') return 'on';
  throw bad(
    `CANONRY_FORWARD_TLS must be auto or on (off loopback the wire is always TLS), got ${text.slice(0, 40)}`,
  );
}

/** `https://app.example, http://localhost:5173` → each an exact origin (or `*`). */
export function parseCorsOrigins(value: string | readonly string[], name: string): string[] {
  if (typeof value !== 'string' && !Array.isArray(value)) {
    throw bad(`${name} must be a comma-separated list or an array of origins`);
  }
  const items = typeof value === 'string' ? value.split(',') : value;
  if (items.length > 1_000) throw bad(`${name}: at most 100 origins`);
  const origins: string[] = [];
  for (const raw of items) {
    if (typeof raw !== 'string') throw bad(`${name}: every origin must be text`);
    const item = raw.trim();
    if (item === '') continue;
    if (item !== '*') {
      let origin: string | undefined;
      try {
        origin = new URL(item).origin;
      } catch {
        origin = undefined;
      }
      if (origin !== item || !/^https?:/.test(item)) {
        throw bad(`${name}: ${item.slice(0, 80)} is not an origin (scheme://host[:port], or *)`);
      }
    }
    if (!origins.includes(item)) origins.push(item);
  }
  if (origins.length > 100) throw bad(`${name}: at most 100 origins`);
  return origins;
}

/**
 * Resolves the configuration: explicit input first, then the environment (`CANONRY_DATA`,
 * `CANONRY_DB`, `CANONRY_PORT`, `CANONRY_HOST`, `CANONRY_LOG_LEVEL`, `CANONRY_CORS_ORIGINS`, the timeouts, checkpoints, rate
 * limit and retention variables in `docs/configuration.md`), then the defaults. Bad values throw
 * INVALID_ARGUMENT.
 */
export function resolveConfig(
  input: ConfigInput = {},
  env: NodeJS.ProcessEnv = process.env,
): CanonryConfig {
  const dataDir = input.dataDir ?? env.CANONRY_DATA ?? DEFAULT_CONFIG.dataDir;
  if (typeof dataDir !== 'string' || dataDir.trim() === '') {
    throw bad(`${from(input.dataDir, '--data', 'CANONRY_DATA')} must be a non-empty path`);
  }
  const host = input.host ?? env.CANONRY_HOST ?? DEFAULT_CONFIG.host;
  if (typeof host !== 'string' || !HOST.test(host)) {
    const got = typeof host === 'string' ? host.slice(0, 80) : `a ${typeof host}`;
    throw bad(
      `${from(input.host, '--host', 'CANONRY_HOST')} must be a host name or an IP address, got ${got}`,
    );
  }
  const logLevel = input.logLevel ?? env.CANONRY_LOG_LEVEL ?? DEFAULT_CONFIG.logLevel;
  if (!LEVELS.includes(logLevel)) {
    throw bad(
      `${from(input.logLevel, 'log level', 'CANONRY_LOG_LEVEL')} must be one of ${LEVELS.join(', ')}`,
    );
  }
  const db = database(input.db, env.CANONRY_DB);
  const verifyOnStart = input.verifyOnStart ?? env.CANONRY_VERIFY_ON_START ?? 'tail';
  if (verifyOnStart !== 'tail' && verifyOnStart !== 'full') {
    const name = from(input.verifyOnStart, '--verify-on-start', 'CANONRY_VERIFY_ON_START');
    throw bad(`${name} must be tail or full`);
  }
  return {
    dataDir: resolve(dataDir),
    db,
    port: integer(
      input.port ?? env.CANONRY_PORT ?? DEFAULT_CONFIG.port,
      from(input.port, '--port', 'CANONRY_PORT'),
      0,
      65535,
    ),
    host,
    logLevel,
    http: timeouts(input.http, env),
    validateRateLimit: parseRateLimit(
      input.validateRateLimit !== undefined
        ? input.validateRateLimit
        : (env.CANONRY_VALIDATE_RATE_LIMIT ?? DEFAULT_CONFIG.validateRateLimit),
      'CANONRY_VALIDATE_RATE_LIMIT',
    ),
    validateWorkers: integer(
      input.validateWorkers ?? env[ENV.validateWorkers] ?? DEFAULT_CONFIG.validateWorkers,
      ENV.validateWorkers,
      0,
      64,
    ),
    eventStreams: integer(
      input.eventStreams ?? env[ENV.eventStreams] ?? DEFAULT_CONFIG.eventStreams,
      ENV.eventStreams,
      1,
      100_000,
    ),
    checkpoints: checkpointPolicy(input.checkpoints, env),
    verifyOnStart,
    auditRetentionDays: retention(
      input.auditRetentionDays !== undefined
        ? input.auditRetentionDays
        : (env.CANONRY_AUDIT_RETENTION_DAYS ?? DEFAULT_CONFIG.auditRetentionDays),
      from(input.auditRetentionDays, 'audit retention days', 'CANONRY_AUDIT_RETENTION_DAYS'),
    ),
    evolution: onOff(input.evolution ?? env.CANONRY_EVOLUTION ?? DEFAULT_CONFIG.evolution),
    forward: forwarding(
      input.forward ?? env.CANONRY_FORWARD,
      input.forwardAdvertise ?? env.CANONRY_FORWARD_ADVERTISE,
      input.forwardTls ?? env.CANONRY_FORWARD_TLS,
    ),
    corsOrigins: parseCorsOrigins(
      input.corsOrigins ?? env.CANONRY_CORS_ORIGINS ?? DEFAULT_CONFIG.corsOrigins,
      input.corsOrigins !== undefined ? 'cors origins' : 'CANONRY_CORS_ORIGINS',
    ),
  };
}
