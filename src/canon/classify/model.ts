import { type CanonryError, fail, ok } from '../../core/index.js';
import {
  type ModelPort,
  type ModelRequest,
  type ModelResponse,
  modelError,
  modelErrorCode,
} from '../../models/index.js';
import type { Classifier, ClassifierInput, ClassifierResult } from '../classification.js';
import { checkModelOutput } from './check-output.js';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './limits.js';
import { classificationRequest, type PromptLimits } from './prompt.js';

/** Options of {@link ModelClassifier}: output bounds, prompt bounds and sampling. */
export interface ModelClassifierOptions extends Partial<OutputLimits>, Partial<PromptLimits> {
  /** 0 by default, for repeatable answers. */
  readonly temperature?: number;
  /** 2048 by default. */
  readonly maxTokens?: number;
}

/**
 * Why a model call failed, as a failed result: bad output is a reason; an outage is a reason and the
 * typed error (so intake can answer 502/503 with the model's retry hint). Anything else thrown is an
 * outage too, as MODEL_UNAVAILABLE: a port that broke could not be asked.
 */
function callFailure(error: unknown, route: string): ClassifierResult {
  const detail = error instanceof Error ? error.message : String(error);
  switch (modelErrorCode(error)) {
    case 'MODEL_OUTPUT_INVALID':
      return fail(`model_output_invalid: ${detail}`);
    case 'MODEL_BUSY':
      return { ...fail(`model_busy: ${detail}`), outage: error as CanonryError };
    case 'MODEL_UNAVAILABLE':
      return { ...fail(`model_unavailable: ${detail}`), outage: error as CanonryError };
    default:
      return {
        ...fail(`model_unavailable: ${detail}`),
        outage: modelError('MODEL_UNAVAILABLE', `${route}: the model port failed`, route),
      };
  }
}

/**
 * A classifier backed by a model port. The model sees the outcomes, the object types, the current
 * canon and the rule that it proposes and never decides; its answer is checked as untrusted input
 * and every problem comes back as a failed result, never as a throw.
 */
export class ModelClassifier implements Classifier {
  readonly name: string;
  readonly #model: ModelPort;
  readonly #limits: OutputLimits & PromptLimits;
  readonly #sampling: { temperature: number; maxTokens: number };

  constructor(model: ModelPort, options: ModelClassifierOptions = {}) {
    this.#model = model;
    this.name = `model:${model.route}`;
    const { temperature = 0, maxTokens = 2048, ...limits } = options;
    this.#limits = {
      ...DEFAULT_OUTPUT_LIMITS,
      maxCanonObjects: 200,
      maxCanonTextChars: 280,
      ...limits,
    };
    this.#sampling = { temperature, maxTokens };
  }

  /** The request the model is sent for this input (deterministic, so replays match). */
  request(input: ClassifierInput): ModelRequest {
    return classificationRequest(input, this.#limits, this.#sampling);
  }

  /** Asks the model and checks its answer. */
  async classify(input: ClassifierInput): Promise<ClassifierResult> {
    if (typeof input?.message?.text !== 'string' || !Array.isArray(input.canon)) {
      return fail('bad_input: expected { message: { text, role, … }, canon: [] }');
    }
    let response: ModelResponse;
    try {
      response = await this.#model.complete(this.request(input));
    } catch (error) {
      return callFailure(error, this.#model.route);
    }
    try {
      const checked = checkModelOutput(String(response?.text), input, this.#limits);
      return checked.ok ? ok({ ...checked.value, classifier: this.name }) : checked;
    } catch (error) {
      return fail(`internal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
