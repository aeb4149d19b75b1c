import {
  type Canon,
  type Classifier,
  classifierSettings,
  ModelClassifier,
  ScriptedClassifier,
  subjectCounts,
} from '../canon/index.js';
import { modelConfigFromEnv, OpenAIModel } from '../models/index.js';

/** Picks the classifier for a project. */
export type ClassifierSource = (project: string) => Promise<Classifier>;

/** What the runtime classifies with, for the start log: never a key or a URL's credentials. */
export interface ClassifierSummary {
  readonly kind: 'model' | 'scripted';
  /** The model's name (`model`), or null for the scripted classifier. */
  readonly model: string | null;
}

/**
 * The classifier for each project: a model classifier when `CANONRY_MODEL_URL` names an
 * OpenAI-compatible server (one model, so one cool-down, shared by every project; its timeout,
 * retries and cool-down from `CANONRY_MODEL_TIMEOUT_MS`, `CANONRY_MODEL_RETRIES` and
 * `CANONRY_MODEL_COOLDOWN_MS`, checked here: INVALID_ARGUMENT at start-up), otherwise the scripted
 * classifier with the project's subjects as journaled (`canon.classifier`, managed over the API and
 * the CLI; none by default). A project's classifier is rebuilt when its configuration moves.
 */
export function classifierSource(
  canon: Canon,
  env: NodeJS.ProcessEnv = process.env,
): { source: ClassifierSource; summary: ClassifierSummary } {
  const model = modelConfigFromEnv(env);
  if (model) {
    const port = new OpenAIModel(model);
    const classifier = new ModelClassifier(port);
    return {
      source: async () => classifier,
      summary: { kind: 'model', model: port.model },
    };
  }
  const cache = new Map<string, { seq: number | null; classifier: Classifier }>();
  const fallback = new ScriptedClassifier();
  return {
    source: async (project) => {
      const settings = await classifierSettings(canon, project);
      if (settings.seq === null) return fallback;
      const cached = cache.get(project);
      if (cached?.seq === settings.seq) return cached.classifier;
      const classifier = new ScriptedClassifier(settings.config);
      cache.set(project, { seq: settings.seq, classifier });
      return classifier;
    },
    summary: { kind: 'scripted', model: null },
  };
}

/**
 * What intake classifies with, for the start log: the kind, the model's name (never its URL or key),
 * and the subjects the projects have, or what a project with none does.
 */
export async function describeClassifier(runtime: {
  readonly classifier: ClassifierSummary;
  readonly canon: Canon;
}): Promise<{ fields: Record<string, unknown>; text: string }> {
  const { kind, model } = runtime.classifier;
  if (kind === 'model')
    return { fields: { kind, model }, text: `intake classifier: model ${model}` };
  const counts = await subjectCounts(runtime.canon);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const projects = Object.keys(counts).length;
  return {
    fields: { kind, model: null, subjects: total, projects_with_subjects: projects },
    text: `intake classifier: scripted, ${total} subject(s) in ${projects} project(s); a project with none derives note ids from decisions, instructions and preferences (subjects: canonry canon subject set, or POST /v1/projects/{project}/classifier/subjects)`,
  };
}
