import { CanonryError } from '../core/index.js';
import type { OpenAIModelConfig } from './openai.js';
import { checkSetting, type ModelCallPolicy } from './policy.js';

/** The environment variables {@link modelConfigFromEnv} reads. */
export const MODEL_ENV = {
  url: 'CANONRY_MODEL_URL',
  model: 'CANONRY_MODEL',
  key: 'CANONRY_MODEL_KEY',
  timeoutMs: 'CANONRY_MODEL_TIMEOUT_MS',
  maxRetries: 'CANONRY_MODEL_RETRIES',
  cooldownMs: 'CANONRY_MODEL_COOLDOWN_MS',
} as const;

const POLICY_VARS = ['timeoutMs', 'maxRetries', 'cooldownMs'] as const;

/** An integer setting from the environment, checked against its bounds; undefined when unset. */
function setting(
  env: Readonly<Record<string, string | undefined>>,
  name: (typeof POLICY_VARS)[number],
): number | undefined {
  const text = env[MODEL_ENV[name]]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  return checkSetting(name, value, MODEL_ENV[name]);
}

/**
 * An OpenAI-compatible model configuration from `CANONRY_MODEL_URL`, `CANONRY_MODEL`,
 * `CANONRY_MODEL_KEY` and, optionally, `CANONRY_MODEL_TIMEOUT_MS` (per attempt),
 * `CANONRY_MODEL_RETRIES` and `CANONRY_MODEL_COOLDOWN_MS`; null when no URL is set (the scripted
 * default applies). Throws INVALID_ARGUMENT for a URL that does not parse, a URL without a model
 * name, or a setting that is not an integer within its bounds.
 */
export function modelConfigFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): OpenAIModelConfig | null {
  const baseURL = env[MODEL_ENV.url]?.trim();
  if (baseURL === undefined || baseURL === '') return null;
  if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
    throw new CanonryError('INVALID_ARGUMENT', `${MODEL_ENV.url} must be an http(s) URL`);
  }
  const model = env[MODEL_ENV.model]?.trim();
  if (model === undefined || model === '') {
    throw new CanonryError('INVALID_ARGUMENT', `${MODEL_ENV.model} must name the model to use`);
  }
  const policy: { -readonly [K in keyof ModelCallPolicy]?: number } = {};
  for (const name of POLICY_VARS) {
    const value = setting(env, name);
    if (value !== undefined) policy[name] = value;
  }
  const apiKey = env[MODEL_ENV.key];
  return {
    baseURL,
    model,
    ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
    ...policy,
  };
}
