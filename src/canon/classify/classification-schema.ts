import type { JsonObject } from '../../core/index.js';
import { strictObject } from '../../models/index.js';
import { CLASSIFICATION_OUTCOMES } from '../classification.js';
import {
  CONFIDENCE_STATES,
  DRAFT_INTENTS,
  OBJECT_STATUSES,
  OBJECT_TYPES,
  type ProposalIntent,
  VISIBILITIES,
} from '../types.js';

/** The name the schema is sent under (`response_format.json_schema.name`). */
export const CLASSIFICATION_SCHEMA_NAME = 'canonry_classification';

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const nullableString = { type: ['string', 'null'] };
const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] });

/** A closed object: every property required, nothing else allowed (what strict mode demands). */
const closed = strictObject;

const source = closed({
  /** `[start, end)` offsets into the message; arity and range are checked after validation. */
  span: { type: 'array', items: { type: 'integer' } },
  /** Exactly `message.text.slice(start, end)`. */
  quote: str,
});

const candidate = closed({
  object_type: enumOf(OBJECT_TYPES),
  title: str,
  text: str,
  confidence_state: enumOf(CONFIDENCE_STATES),
  status: enumOf(OBJECT_STATUSES),
  visibility: enumOf(VISIBILITIES),
  sources: { type: 'array', items: source },
  dependency_refs: strings,
  effective_from: nullableString,
  effective_until: nullableString,
  tags: strings,
});

const draft = closed({
  object_id: str,
  intent: enumOf(DRAFT_INTENTS),
  candidate,
  supersedes: strings,
  rationale: str,
});

/**
 * The JSON Schema (2020-12) a model's classification must follow. It keeps to the subset that
 * OpenAI strict mode and local guided decoders (vLLM, llama.cpp, Ollama) accept: types, enums,
 * required and closed objects. Lengths, counts, span arity and ranges are checked afterwards, and
 * `shape` is not asked for (drafts from a model carry `shape: null`).
 */
export const CLASSIFICATION_SCHEMA: JsonObject = closed({
  outcome: enumOf(CLASSIFICATION_OUTCOMES),
  touched: strings,
  drafts: { type: 'array', items: draft },
  rationale: str,
});

/** A draft as the model writes it (before it is checked and turned into a `ProposalDraft`). */
export interface ModelDraft {
  object_id: string;
  intent: ProposalIntent;
  candidate: {
    object_type: (typeof OBJECT_TYPES)[number];
    title: string;
    text: string;
    confidence_state: (typeof CONFIDENCE_STATES)[number];
    status: (typeof OBJECT_STATUSES)[number];
    visibility: (typeof VISIBILITIES)[number];
    sources: { span: number[]; quote: string }[];
    dependency_refs: string[];
    effective_from: string | null;
    effective_until: string | null;
    tags: string[];
  };
  supersedes: string[];
  rationale: string;
}

/** A classification as the model writes it. */
export interface ModelClassification {
  outcome: (typeof CLASSIFICATION_OUTCOMES)[number];
  touched: string[];
  drafts: ModelDraft[];
  rationale: string;
}
