import type { JsonObject } from '../core/index.js';
import { strictObject } from '../models/index.js';
import { FACT_PROVENANCES } from './types.js';

/**
 * The JSON Schema (2020-12) of a window's structured answer: its text (`output`) and its
 * contribution to the state. It keeps to what OpenAI strict mode and local guided decoders accept —
 * types, enums, required and closed objects — so every property is required and what the relay
 * treats as optional is `null` (ids, provenance, confidence) or an empty array. Counts, lengths,
 * ranges and id uniqueness are checked after the schema ({@link CONTRIBUTION_LIMITS}).
 */

/** The name the schema is sent under (`response_format.json_schema.name`: `[a-zA-Z0-9_-]{1,64}`). */
export const CONTRIBUTION_SCHEMA_NAME = 'canonry_window_contribution';

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const nullableString = { type: ['string', 'null'] };

/** A closed object: every property required, nothing else allowed (what strict mode demands). */
const closed = strictObject;

const provenance = { type: ['string', 'null'], enum: [...FACT_PROVENANCES, null] };

const fact = closed({
  fact_id: nullableString,
  statement: str,
  provenance,
  provenance_ref: nullableString,
  confidence: { type: ['number', 'null'] },
  supersedes: strings,
});

const decision = closed({
  decision_id: nullableString,
  choice: str,
  rationale: str,
  alternatives: strings,
  depends_on: strings,
  revisable: { type: ['boolean', 'null'] },
  provenance,
  provenance_ref: nullableString,
  revises: nullableString,
});

const toolResult = closed({
  scratch_id: str,
  tool: str,
  result_hash: str,
  summary: str,
});

/** The lists of a contribution, in the order the schema, the prompt and the checks name them. */
export const CONTRIBUTION_LISTS = [
  'facts',
  'decisions',
  'open_questions',
  'resolved_questions',
  'constraints',
  'completed',
  'invalidates',
  'tool_results',
] as const;
export type ContributionList = (typeof CONTRIBUTION_LISTS)[number];

/** What the model must answer with: `{ output, facts, decisions, …, tool_results }`. */
export const CONTRIBUTION_SCHEMA: JsonObject = closed({
  output: str,
  facts: { type: 'array', items: fact },
  decisions: { type: 'array', items: decision },
  open_questions: strings,
  resolved_questions: strings,
  constraints: strings,
  completed: strings,
  invalidates: strings,
  tool_results: { type: 'array', items: toolResult },
});

/**
 * The same items for a contribution a library or HTTP caller passes directly: no `output`, every
 * list optional (absent = empty), and the relay's optional fields absent or `null`.
 */
function open(properties: JsonObject, required: readonly string[]): JsonObject {
  return { type: 'object', properties, required: [...required], additionalProperties: false };
}
const optionalList = (items: JsonObject) => ({ type: 'array', items });
export const CONTRIBUTION_VALUE_SCHEMA: JsonObject = open(
  {
    facts: optionalList(open(fact.properties as JsonObject, ['statement'])),
    decisions: optionalList(
      open(decision.properties as JsonObject, ['choice', 'rationale']) as JsonObject,
    ),
    open_questions: strings,
    resolved_questions: strings,
    constraints: strings,
    completed: strings,
    invalidates: strings,
    tool_results: optionalList(toolResult),
  },
  [],
);

/** Bounds on one contribution; anything beyond them is refused, never truncated. */
export interface ContributionLimits {
  /** The raw model text (JSON and all), in UTF-16 code units. */
  readonly maxRawChars: number;
  /** The window's text (`output`). */
  readonly maxOutputChars: number;
  /** Items in any one list. */
  readonly maxItems: number;
  /** A statement, choice, question, constraint, summary or other free text. */
  readonly maxTextChars: number;
  /** A rationale (the reasoning is the point: longer than a statement). */
  readonly maxRationaleChars: number;
  /** An id, a provenance reference, a tool name. */
  readonly maxIdChars: number;
  /** Entries of `alternatives`, `depends_on` or `supersedes`. */
  readonly maxRefs: number;
}

/** The defaults for {@link ContributionLimits}. */
export const CONTRIBUTION_LIMITS: ContributionLimits = Object.freeze({
  maxRawChars: 524_288,
  maxOutputChars: 262_144,
  maxItems: 256,
  maxTextChars: 2_000,
  maxRationaleChars: 4_000,
  maxIdChars: 128,
  maxRefs: 32,
});
