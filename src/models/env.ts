import { CanonryError } from '../core/index.js';
import type { OpenAIModelConfig } from './openai.js';

/** The environment variables {@link modelConfigFromEnv} reads. */
export const MODEL_ENV = {
  url: 'CANONRY_MODEL_URL',
  model: 'CANONRY_MODEL',
  key: 'CANONRY_MODEL_KEY',
} as const;

/**
 * An OpenAI-compatible model configuration from `CANONRY_MODEL_URL`, `CANONRY_MODEL` and
 * `CANONRY_MODEL_KEY`; null when no URL is set (the scripted default applies). Throws
 * INVALID_ARGUMENT for a URL that does not parse or a URL without a model name.
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
  const apiKey = env[MODEL_ENV.key];
  return apiKey === undefined || apiKey === '' ? { baseURL, model } : { baseURL, model, apiKey };
}
