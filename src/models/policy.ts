import { CanonryError } from '../core/index.js';

/** How long canonry waits for a model, how often it tries, and how long it holds off after a failure. */
export interface ModelCallPolicy {
  /** The most one attempt may take, headers and body together (ms). */
  readonly timeoutMs: number;
  /** Further attempts after a quick failure (connection refused or reset, 408, 429, 5xx). */
  readonly maxRetries: number;
  /** After a call fails for want of a model, further calls fail fast for this long (ms); 0: never. */
  readonly cooldownMs: number;
  /** The largest response body read (bytes); a larger one is MODEL_OUTPUT_INVALID. */
  readonly maxResponseBytes: number;
}

/** The defaults: 20 s an attempt, one retry, a 10 s cool-down, 4 MiB answers (worst wait 41 s). */
export const DEFAULT_MODEL_POLICY: ModelCallPolicy = Object.freeze({
  timeoutMs: 20_000,
  maxRetries: 1,
  cooldownMs: 10_000,
  maxResponseBytes: 4 * 1024 * 1024,
});

/** The bounds each setting is checked against. */
export const MODEL_POLICY_LIMITS: Readonly<Record<keyof ModelCallPolicy, [number, number]>> = {
  timeoutMs: [100, 600_000],
  maxRetries: [0, 5],
  cooldownMs: [0, 600_000],
  maxResponseBytes: [1024, 64 * 1024 * 1024],
};

/** The longest pause between two attempts; a longer Retry-After ends the call with MODEL_BUSY. */
export const MAX_PAUSE_MS = 1_000;

/** The longest Retry-After canonry honours or passes on (a server cannot hold it off for longer). */
export const MAX_RETRY_AFTER_MS = 300_000;

/** Checks one setting; INVALID_ARGUMENT names it and its bounds. */
export function checkSetting(
  name: keyof ModelCallPolicy,
  value: unknown,
  label: string = name,
): number {
  const [min, max] = MODEL_POLICY_LIMITS[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${label} must be an integer from ${min} to ${max}`,
      {
        field: label,
        min,
        max,
      },
    );
  }
  return value;
}

/** The policy with defaults filled in, every setting checked. */
export function modelPolicy(input: Partial<ModelCallPolicy> = {}): ModelCallPolicy {
  const out = { ...DEFAULT_MODEL_POLICY };
  for (const name of Object.keys(DEFAULT_MODEL_POLICY) as (keyof ModelCallPolicy)[]) {
    if (input[name] !== undefined) out[name] = checkSetting(name, input[name]);
  }
  return out;
}

/**
 * The longest a call can take, whatever the server does: every attempt at its timeout and every
 * pause at its longest. Calls are held to it by one timer.
 */
export function worstWaitMs(policy: ModelCallPolicy): number {
  return (policy.maxRetries + 1) * policy.timeoutMs + policy.maxRetries * MAX_PAUSE_MS;
}

/** The pause before retry `n` (1-based): 250 ms doubling, at most {@link MAX_PAUSE_MS}. */
export function backoffMs(n: number): number {
  return Math.min(250 * 2 ** (n - 1), MAX_PAUSE_MS);
}

/**
 * The wait a server asked for, in ms, from `retry-after-ms`, or `retry-after` as seconds or an HTTP
 * date; undefined when absent or unreadable. Clamped to 0–{@link MAX_RETRY_AFTER_MS}.
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const clamp = (ms: number) => Math.min(Math.max(0, Math.ceil(ms)), MAX_RETRY_AFTER_MS);
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return clamp(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return clamp(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : clamp(date - now);
}

/** Whole seconds, at least 1, for a Retry-After header. */
export function toRetryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
