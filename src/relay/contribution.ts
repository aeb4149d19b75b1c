import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  CanonryError,
  type ErrorCode,
  isContentHash,
  type JsonObject,
  parseJsonText,
} from '../core/index.js';
import { HASHED_ITEM_ID } from './canon-map.js';
import {
  CONTRIBUTION_LIMITS,
  CONTRIBUTION_LISTS,
  CONTRIBUTION_SCHEMA,
  CONTRIBUTION_VALUE_SCHEMA,
  type ContributionLimits,
} from './contribution-schema.js';
import { isRelayId } from './limits.js';
import type {
  Contribution,
  DecisionContribution,
  FactContribution,
  FactProvenance,
  ToolResult,
} from './types.js';

/**
 * A window's contribution is untrusted input twice over: the model writes it, or a caller passes it.
 * Either way it is measured before it is parsed, held to the schema, then to the bounds, and turned
 * into a {@link Contribution} only when every check passed — a failure names the first bad path
 * (`/facts/3/statement`) in its message and in `details.field`, and nothing partial comes back.
 */

/** What {@link parseContribution} returns: the window's text and its checked contribution. */
export interface ParsedContribution {
  readonly output: string;
  readonly contribution: Contribution;
}

/** The deepest a contribution nests (root → list → item → refs), with room to spare. */
const MAX_DEPTH = 8;
/** Values of one raw answer: 256 items in each of 8 lists, a dozen values an item, with room. */
const MAX_VALUES = 32_768;
/** The schema names 28 members; an answer with many more is not a contribution. */
const MAX_KEYS = 256;

let ajv: Ajv2020 | undefined;
const compiled = new Map<JsonObject, ValidateFunction>();

function validator(schema: JsonObject): ValidateFunction {
  let check = compiled.get(schema);
  if (!check) {
    ajv ??= new Ajv2020({ strict: false, logger: false, allErrors: false, ownProperties: true });
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

class Invalid {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {}
}

function invalid(field: string, problem: string): never {
  throw new Invalid(field, problem);
}

/** `/facts/0` + the property a `required` or `additionalProperties` error names. */
function pathOf(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const named = params.missingProperty ?? params.additionalProperty;
  return named === undefined ? error.instancePath : `${error.instancePath}/${named}`;
}

function schemaProblem(error: ErrorObject): string {
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'additionalProperties') return 'is not a field of a contribution';
  if (error.keyword === 'enum') return `must be one of the listed values`;
  return error.message ?? 'is invalid';
}

/** `field` for messages: JSON-pointer-like, clipped so a hostile key cannot bloat an error. */
const shown = (field: string): string => (field === '' ? '/' : field.slice(0, 96));

function text(value: string, field: string, max: number): string {
  if (value.length > max) invalid(field, `is ${value.length} characters (limit ${max})`);
  // No journal entry can hold one (canonical JSON refuses it): refused here, with its field.
  if (!value.isWellFormed()) invalid(field, 'holds a lone surrogate');
  const trimmed = value.trim();
  if (trimmed === '') invalid(field, 'is empty');
  return trimmed;
}

function id(value: string, field: string, limits: ContributionLimits): string {
  const trimmed = text(value, field, limits.maxIdChars);
  if (trimmed !== value) invalid(field, 'has leading or trailing white space');
  // Renamed instead, an id would leave the references to it pointing at nothing, or elsewhere.
  if (!isRelayId(trimmed)) {
    invalid(field, 'is not an id (a letter or digit, then letters, digits, . _ : -)');
  }
  // The form canon names a hashed id by (`objectIdOf`): taken as given, it could name another
  // item's note.
  if (HASHED_ITEM_ID.test(trimmed)) invalid(field, 'is reserved (h and 24 hex digits)');
  return trimmed;
}

function refs(
  values: unknown,
  field: string,
  limits: ContributionLimits,
  as: 'id' | 'text',
): string[] {
  const list = (values ?? []) as string[];
  if (list.length > limits.maxRefs) {
    invalid(field, `has ${list.length} entries (limit ${limits.maxRefs})`);
  }
  return list.map((v, i) =>
    as === 'id' ? id(v, `${field}/${i}`, limits) : text(v, `${field}/${i}`, limits.maxTextChars),
  );
}

function optionalId(value: unknown, field: string, limits: ContributionLimits): string | undefined {
  return value === undefined || value === null ? undefined : id(value as string, field, limits);
}

/**
 * A provenance reference: for TOOL and DERIVED an id (a scratch id, a fact id); otherwise free text
 * of an id's length (a message, a document, a section).
 */
function provenanceRef(
  value: unknown,
  provenance: FactProvenance | undefined,
  field: string,
  limits: ContributionLimits,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (provenance === 'TOOL' || provenance === 'DERIVED') return id(value as string, field, limits);
  return text(value as string, field, limits.maxIdChars);
}

function checkFact(raw: Raw, at: string, limits: ContributionLimits): FactContribution {
  const fact_id = optionalId(raw.fact_id, `${at}/fact_id`, limits);
  const statement = text(raw.statement as string, `${at}/statement`, limits.maxTextChars);
  const provenance = (raw.provenance ?? undefined) as FactProvenance | undefined;
  const provenance_ref = provenanceRef(
    raw.provenance_ref,
    provenance,
    `${at}/provenance_ref`,
    limits,
  );
  const confidence = raw.confidence ?? undefined;
  if (typeof confidence === 'number' && !(confidence >= 0 && confidence <= 1)) {
    invalid(`${at}/confidence`, 'must be between 0 and 1');
  }
  const supersedes = refs(raw.supersedes, `${at}/supersedes`, limits, 'id');
  return {
    ...(fact_id === undefined ? {} : { fact_id }),
    statement,
    ...(provenance === undefined ? {} : { provenance }),
    ...(provenance_ref === undefined ? {} : { provenance_ref }),
    ...(typeof confidence === 'number' ? { confidence } : {}),
    ...(supersedes.length === 0 ? {} : { supersedes }),
  };
}

function checkDecision(raw: Raw, at: string, limits: ContributionLimits): DecisionContribution {
  const decision_id = optionalId(raw.decision_id, `${at}/decision_id`, limits);
  const choice = text(raw.choice as string, `${at}/choice`, limits.maxTextChars);
  const rationale = text(raw.rationale as string, `${at}/rationale`, limits.maxRationaleChars);
  const alternatives = refs(raw.alternatives, `${at}/alternatives`, limits, 'text');
  const depends_on = refs(raw.depends_on, `${at}/depends_on`, limits, 'id');
  const revisable = raw.revisable ?? undefined;
  const provenance = (raw.provenance ?? undefined) as FactProvenance | undefined;
  const provenance_ref = provenanceRef(
    raw.provenance_ref,
    provenance,
    `${at}/provenance_ref`,
    limits,
  );
  const revises = optionalId(raw.revises, `${at}/revises`, limits);
  return {
    ...(decision_id === undefined ? {} : { decision_id }),
    choice,
    rationale,
    alternatives,
    depends_on,
    ...(typeof revisable === 'boolean' ? { revisable } : {}),
    ...(provenance === undefined ? {} : { provenance }),
    ...(provenance_ref === undefined ? {} : { provenance_ref }),
    ...(revises === undefined ? {} : { revises }),
  };
}

function checkToolResult(raw: Raw, at: string, limits: ContributionLimits): ToolResult {
  const result_hash = raw.result_hash as string;
  if (!isContentHash(result_hash)) invalid(`${at}/result_hash`, 'must be sha256:<64 hex>');
  return {
    scratch_id: id(raw.scratch_id as string, `${at}/scratch_id`, limits),
    tool: text(raw.tool as string, `${at}/tool`, limits.maxIdChars),
    result_hash,
    summary: text(raw.summary as string, `${at}/summary`, limits.maxTextChars),
  };
}

/** Refuses an id that names two items of one contribution (which would the graph mean?). */
function unique(ids: readonly (readonly [string | undefined, string])[]): void {
  const seen = new Map<string, string>();
  for (const [value, field] of ids) {
    if (value === undefined) continue;
    const first = seen.get(value);
    if (first !== undefined) invalid(field, `repeats the id of ${first}`);
    seen.set(value, field);
  }
}

/** The id and name lists inside items, bounded before the schema walks them. */
const REF_LISTS = [
  ['facts', ['supersedes']],
  ['decisions', ['alternatives', 'depends_on']],
] as const;

/** Schema, then bounds, then the typed value; throws {@link Invalid} at the first problem. */
function check(value: unknown, schema: JsonObject, limits: ContributionLimits): Contribution {
  if (!isObject(value)) invalid('', 'must be a JSON object');
  // Lengths first, so a hostile list is refused before anything walks it.
  for (const list of CONTRIBUTION_LISTS) {
    const items = Object.hasOwn(value, list) ? value[list] : undefined;
    if (Array.isArray(items) && items.length > limits.maxItems) {
      invalid(`/${list}`, `has ${items.length} items (limit ${limits.maxItems})`);
    }
  }
  for (const [list, refLists] of REF_LISTS) {
    const items = Object.hasOwn(value, list) ? value[list] : undefined;
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (!isObject(item)) return;
      for (const name of refLists) {
        const refs = Object.hasOwn(item, name) ? item[name] : undefined;
        if (Array.isArray(refs) && refs.length > limits.maxRefs) {
          invalid(`/${list}/${i}/${name}`, `has ${refs.length} entries (limit ${limits.maxRefs})`);
        }
      }
    });
  }
  const validate = validator(schema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    invalid(first ? pathOf(first) : '', first ? schemaProblem(first) : 'is invalid');
  }
  const list = (name: string): readonly unknown[] => (value[name] ?? []) as unknown[];
  const texts = (name: string): string[] =>
    list(name).map((v, i) => text(v as string, `/${name}/${i}`, limits.maxTextChars));
  const ids = (name: string): string[] =>
    list(name).map((v, i) => id(v as string, `/${name}/${i}`, limits));
  const facts = list('facts').map((f, i) => checkFact(f as Raw, `/facts/${i}`, limits));
  const decisions = list('decisions').map((d, i) =>
    checkDecision(d as Raw, `/decisions/${i}`, limits),
  );
  const tool_results = list('tool_results').map((t, i) =>
    checkToolResult(t as Raw, `/tool_results/${i}`, limits),
  );
  unique([
    ...facts.map((f, i) => [f.fact_id, `/facts/${i}/fact_id`] as const),
    ...decisions.map((d, i) => [d.decision_id, `/decisions/${i}/decision_id`] as const),
    ...tool_results.map((t, i) => [t.scratch_id, `/tool_results/${i}/scratch_id`] as const),
  ]);
  return {
    facts,
    decisions,
    open_questions: texts('open_questions'),
    resolved_questions: texts('resolved_questions'),
    constraints: texts('constraints'),
    completed: texts('completed'),
    invalidates: ids('invalidates'),
    tool_results,
  };
}

/** Runs `work`, turning a problem (or anything a hostile value throws while read) into `code`. */
function guarded<T>(code: ErrorCode, what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof Invalid) {
      throw new CanonryError(code, `${what}: ${shown(error.field)} ${error.problem}`, {
        field: shown(error.field),
      });
    }
    if (error instanceof CanonryError) {
      throw new CanonryError(code, `${what}: ${error.message}`, error.details, { cause: error });
    }
    throw new CanonryError(code, `${what}: the value could not be read`, undefined, {
      cause: error,
    });
  }
}

/** The JSON inside a single ```json fence, or the text itself (scanned, not matched by a regex). */
function unfence(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('```') || !trimmed.endsWith('```') || trimmed.length < 6) return raw;
  const firstLine = trimmed.indexOf('\n');
  if (firstLine === -1) return raw;
  const info = trimmed.slice(3, firstLine).trim();
  if (info !== '' && info !== 'json') return raw;
  return trimmed.slice(firstLine + 1, -3);
}

/**
 * Parses a model's raw answer into the window's text and its contribution: the bounded JSON parser
 * (depth, values, member names measured before parsing), the {@link CONTRIBUTION_SCHEMA}, then
 * {@link ContributionLimits}. Every failure is MODEL_OUTPUT_INVALID (422) naming the first bad path.
 */
export function parseContribution(
  raw: string,
  limits: ContributionLimits = CONTRIBUTION_LIMITS,
): ParsedContribution {
  const what = 'the window contribution';
  return guarded('MODEL_OUTPUT_INVALID', what, () => {
    if (typeof raw !== 'string') invalid('', 'must be text');
    if (raw.length > limits.maxRawChars) {
      invalid('', `is ${raw.length} characters (limit ${limits.maxRawChars})`);
    }
    const value = parseJsonText(unfence(raw), MAX_DEPTH, { values: MAX_VALUES, keys: MAX_KEYS });
    const contribution = check(value, CONTRIBUTION_SCHEMA, limits);
    const output = (value as Raw).output as string;
    if (output.length > limits.maxOutputChars) {
      invalid('/output', `is ${output.length} characters (limit ${limits.maxOutputChars})`);
    }
    if (!output.isWellFormed()) invalid('/output', 'holds a lone surrogate');
    return { output, contribution };
  });
}

/**
 * Checks a contribution a library or HTTP caller passes directly ({@link CONTRIBUTION_VALUE_SCHEMA}:
 * lists optional, optional fields absent or null) and returns it normalised: every list present,
 * texts trimmed, nulls dropped. Failures are `code` (INVALID_BODY, 400, by default).
 */
export function checkContribution(
  value: unknown,
  options: { readonly code?: ErrorCode; readonly limits?: ContributionLimits } = {},
): Contribution {
  const { code = 'INVALID_BODY', limits = CONTRIBUTION_LIMITS } = options;
  return guarded(code, 'the contribution', () => check(value, CONTRIBUTION_VALUE_SCHEMA, limits));
}
