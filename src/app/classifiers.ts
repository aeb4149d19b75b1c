import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Classifier, ModelClassifier, ScriptedClassifier } from '../canon/index.js';
import { CanonryError, parseJsonText } from '../core/index.js';
import { modelConfigFromEnv, OpenAIModel } from '../models/index.js';

/** Picks the classifier for a project. */
export type ClassifierSource = (project: string) => Classifier;

/**
 * The classifier for each project: a model classifier when `CANONRY_MODEL_URL` names an
 * OpenAI-compatible server (one model, so one cool-down, shared by every project; its timeout,
 * retries and cool-down from `CANONRY_MODEL_TIMEOUT_MS`, `CANONRY_MODEL_RETRIES` and
 * `CANONRY_MODEL_COOLDOWN_MS`, checked here: INVALID_ARGUMENT at start-up), otherwise the scripted
 * classifier with the project's subjects from `<dataDir>/classifiers/<project>.json` (or none).
 * Configs are validated when loaded.
 */
export function classifierSource(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): ClassifierSource {
  const model = modelConfigFromEnv(env);
  if (model) {
    const classifier = new ModelClassifier(new OpenAIModel(model));
    return () => classifier;
  }
  const cache = new Map<string, Classifier>();
  return (project) => {
    let classifier = cache.get(project);
    if (!classifier) {
      const path = join(dataDir, 'classifiers', `${project}.json`);
      let config: unknown;
      if (existsSync(path)) {
        try {
          config = parseJsonText(readFileSync(path, 'utf8'), 32);
        } catch {
          throw new CanonryError('MALFORMED_FILE', `classifier config ${path} is not JSON`);
        }
      }
      classifier = new ScriptedClassifier(config);
      cache.set(project, classifier);
    }
    return classifier;
  };
}
