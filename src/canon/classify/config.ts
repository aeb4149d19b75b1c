import { CanonryError, type JsonObject } from '../../core/index.js';
import { compileConstraints } from '../../kernel/index.js';
import { CLASSIFICATION_OUTCOMES, type ClassificationOutcome } from '../classification.js';
import { OBJECT_TYPES, type ObjectType } from '../types.js';

/** A subject the scripted classifier watches for: the object id is its key in `subjects`. */
export interface SubjectConfig {
  readonly title: string;
  readonly object_type: ObjectType;
  /** Words or phrases that mark a message as touching the subject (whole words, any case). */
  readonly keywords: readonly string[];
  /** Tags copied onto drafts (domains that raise stakes: identity, publication, …). */
  readonly tags?: readonly string[];
}

/** An extra cue rule, checked before the built-in cues (after the assistant/agent modality rule). */
export interface CueRule {
  readonly outcome: ClassificationOutcome;
  readonly cues: readonly string[];
  /** The object type drafts get; the built-in type for the outcome when absent. */
  readonly object_type?: ObjectType;
}

/** The scripted classifier's configuration: JSON, validated by {@link parseScriptedConfig}. */
export interface ScriptedConfig {
  readonly subjects: Readonly<Record<string, SubjectConfig>>;
  readonly rules?: readonly CueRule[];
  /**
   * Whether a decision, instruction, preference or suggestion that touches no subject becomes a
   * note with an id derived from its sentence (`decision.ship-on-fridays`, see `derive.ts`). When
   * absent: true while no subject is configured (a first run proposes), false once subjects are
   * (the project chose what becomes a note). False: such messages draft nothing.
   */
  readonly derive_ids?: boolean;
}

/** The default: no subjects and no extra rules (outcomes are still found, no drafts are made). */
export const DEFAULT_SCRIPTED_CONFIG: ScriptedConfig = Object.freeze({ subjects: {} });

const phrase = { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' };

/** The JSON Schema 2020-12 of {@link ScriptedConfig}. */
export const SCRIPTED_CONFIG_SCHEMA: JsonObject = {
  type: 'object',
  required: ['subjects'],
  additionalProperties: false,
  properties: {
    subjects: {
      type: 'object',
      maxProperties: 1000,
      propertyNames: { minLength: 1, maxLength: 128 },
      additionalProperties: {
        type: 'object',
        required: ['title', 'object_type', 'keywords'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 200 },
          object_type: { enum: [...OBJECT_TYPES] },
          keywords: { type: 'array', maxItems: 200, items: phrase },
          tags: { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 64 } },
        },
      },
    },
    derive_ids: { type: 'boolean' },
    rules: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['outcome', 'cues'],
        additionalProperties: false,
        properties: {
          outcome: { enum: [...CLASSIFICATION_OUTCOMES] },
          cues: { type: 'array', minItems: 1, maxItems: 200, items: phrase },
          object_type: { enum: [...OBJECT_TYPES] },
        },
      },
    },
  },
};

let check: ReturnType<typeof compileConstraints> | undefined;

/** Returns `value` as a scripted config, or throws INVALID_ARGUMENT naming the first problem. */
export function parseScriptedConfig(value: unknown): ScriptedConfig {
  check ??= compileConstraints(SCRIPTED_CONFIG_SCHEMA);
  const result = check(value);
  if (!result.valid) {
    const first = result.errors[0];
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `invalid scripted classifier config at ${first?.instancePath || '/'}: ${first?.keyword ?? 'invalid'}`,
      { issues: result.errors },
    );
  }
  return value as ScriptedConfig;
}
