export { type AuthorBounds, authorBounds, boundIssues, isMachineAuthor } from './bounds.js';
export { checkModelOutput } from './check-output.js';
export {
  CLASSIFICATION_SCHEMA,
  CLASSIFICATION_SCHEMA_NAME,
  type ModelClassification,
  type ModelDraft,
} from './classification-schema.js';
export {
  type CueRule,
  DEFAULT_SCRIPTED_CONFIG,
  parseScriptedConfig,
  SCRIPTED_CONFIG_SCHEMA,
  type ScriptedConfig,
  type SubjectConfig,
} from './config.js';
export {
  BUILTIN_TIERS,
  type CueKind,
  type CueTier,
  citesSource,
  SUGGESTION_TIER,
} from './cues.js';
export {
  CLASSIFY_FAILURES,
  type ClassifyFailure,
  DEFAULT_OUTPUT_LIMITS,
  type OutputLimits,
} from './limits.js';
export { ModelClassifier, type ModelClassifierOptions } from './model.js';
export { classificationRequest, compactCanon, type PromptLimits, systemPrompt } from './prompt.js';
export { ScriptedClassifier } from './scripted.js';
export { phraseRegExp, type Sentence, splitSentences } from './text.js';
