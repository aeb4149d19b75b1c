import { fail, ok, type Result } from '../../core/index.js';
import {
  type ModelPort,
  type ModelRequest,
  type ModelResponse,
  modelErrorCode,
} from '../../models/index.js';
import type { Classification, Classifier, ClassifierInput } from '../classification.js';
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

/** Why a model call failed, as a `<code>: <detail>` reason. */
function callFailure(error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  switch (modelErrorCode(error)) {
    case 'MODEL_OUTPUT_INVALID':
      return `model_output_invalid: ${detail}`;
    default:
      return `model_unavailable: ${detail}`;
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
  async classify(input: ClassifierInput): Promise<Result<Classification, string>> {
    if (typeof input?.message?.text !== 'string' || !Array.isArray(input.canon)) {
      return fail('bad_input: expected { message: { text, role, … }, canon: [] }');
    }
    let response: ModelResponse;
    try {
      response = await this.#model.complete(this.request(input));
    } catch (error) {
      return fail(callFailure(error));
    }
    try {
      const checked = checkModelOutput(String(response?.text), input, this.#limits);
      return checked.ok ? ok({ ...checked.value, classifier: this.name }) : checked;
    } catch (error) {
      return fail(`internal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
