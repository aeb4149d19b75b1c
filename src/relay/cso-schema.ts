import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { CanonryError } from '../core/index.js';
import { checkReferencesAfter } from './cso-check.js';
import { DependencyIndex, edgeKey, impliedEdges } from './graph.js';
import type { StepDelta } from './graph-delta.js';
import { ID_PATTERN, CSO_LIMITS as L, MAX_REVISIONS_CEILING } from './limits.js';
import { type CognitiveStateObject, FACT_PROVENANCES, RELAY_MODES } from './types.js';

/** The version of {@link CSO_SCHEMA}; a change to what a CSO may hold is a new version. */
export const CSO_SCHEMA_VERSION = 1;

const HEX64 = '[0-9a-f]{64}';
/** `hmac-sha256:<key id>:<hex>`, the seal the trust module's HMAC keyring makes. */
export const CSO_HMAC_PATTERN = `^hmac-sha256:[A-Za-z0-9._-]{1,64}:${HEX64}$`;
/** A predecessor's seal, or (window 1) the session genesis `sha256:<hex>`. */
const PRIOR_PATTERN = `^(sha256:${HEX64}|hmac-sha256:[A-Za-z0-9._-]{1,64}:${HEX64})$`;

const id = { type: 'string', pattern: ID_PATTERN } as const;
const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
const texts = (maxItems: number, maxLength: number = L.itemChars) =>
  ({ type: 'array', maxItems, items: text(maxLength) }) as const;
const windowNumber = { type: 'integer', minimum: 1, maximum: L.windowNumber } as const;
const unit = { type: 'number', minimum: 0, maximum: 1 } as const;
const ref = { type: 'string', minLength: 1, maxLength: L.refChars } as const;

/**
 * The Cognitive State Object of CRP-030 §2.1 as JSON Schema 2020-12, with canonry's optional fields
 * (`src/relay/README.md`) and the bounds of {@link CSO_LIMITS}. What a schema cannot say (unique
 * ids, known edge endpoints, an acyclic graph) {@link parseCso} checks after it.
 */
export const CSO_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://canonry.dev/schemas/relay/cso.v${CSO_SCHEMA_VERSION}.json`,
  title: 'CRP-030 Cognitive State Object',
  type: 'object',
  additionalProperties: false,
  required: [
    'cso_id',
    'window_number',
    'prior_cso_hash',
    'established_facts',
    'decisions',
    'open_questions',
    'constraints',
    'goal_state',
    'dependency_graph',
    'cso_hmac',
    'verified',
  ],
  properties: {
    cso_id: id,
    window_number: windowNumber,
    prior_cso_hash: { type: 'string', pattern: PRIOR_PATTERN },
    established_facts: {
      type: 'array',
      maxItems: L.facts,
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'fact_id',
          'statement',
          'provenance',
          'provenance_ref',
          'confidence',
          'window_origin',
        ],
        properties: {
          fact_id: id,
          statement: { type: 'string', minLength: 1, maxLength: L.statementChars },
          provenance: { enum: [...FACT_PROVENANCES] },
          provenance_ref: ref,
          confidence: unit,
          window_origin: windowNumber,
          result_hash: { type: 'string', pattern: `^sha256:${HEX64}$` },
        },
      },
    },
    decisions: {
      type: 'array',
      maxItems: L.decisions,
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'decision_id',
          'choice',
          'rationale',
          'alternatives',
          'depends_on',
          'revisable',
          'window_origin',
        ],
        properties: {
          decision_id: id,
          choice: { type: 'string', minLength: 1, maxLength: L.statementChars },
          rationale: text(L.rationaleChars),
          alternatives: texts(L.alternatives),
          depends_on: { type: 'array', maxItems: L.dependsOn, items: id },
          revisable: { type: 'boolean' },
          window_origin: windowNumber,
          provenance: { enum: [...FACT_PROVENANCES] },
          provenance_ref: ref,
          revisions: { type: 'integer', minimum: 0, maximum: MAX_REVISIONS_CEILING },
          revises: id,
          needs_revision: { type: 'boolean' },
          escalated: id,
        },
      },
    },
    open_questions: texts(L.openQuestions),
    constraints: texts(L.constraints),
    goal_state: {
      type: 'object',
      additionalProperties: false,
      required: ['mode', 'objective', 'remaining', 'success_test', 'completion'],
      properties: {
        mode: { enum: [...RELAY_MODES] },
        objective: text(L.itemChars),
        remaining: texts(L.remaining),
        success_test: text(L.itemChars),
        completion: unit,
      },
    },
    dependency_graph: {
      type: 'array',
      maxItems: L.edges,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['dependent', 'depends_on'],
        properties: { dependent: id, depends_on: ref },
      },
    },
    cso_hmac: { type: 'string', pattern: CSO_HMAC_PATTERN },
    verified: { type: 'boolean' },
  },
} as const;

let validate: ValidateFunction<CognitiveStateObject> | undefined;

/** The three lists whose items are checked one by one (and remembered) when a CSO is sealed. */
export const LISTS = ['established_facts', 'decisions', 'dependency_graph'] as const;

/** One of the CSO's three lists of items. */
export type CsoList = (typeof LISTS)[number];

interface PartValidators {
  readonly header: ValidateFunction;
  readonly items: Readonly<Record<CsoList, ValidateFunction>>;
}
let parts: PartValidators | undefined;

/**
 * Items (by identity) that passed their list's item schema: carried into the next CSO, not checked
 * again. One set per list: a fact's object that passed the fact schema has not passed a decision's.
 */
const checkedItems: Readonly<Record<CsoList, WeakSet<object>>> = {
  established_facts: new WeakSet(),
  decisions: new WeakSet(),
  dependency_graph: new WeakSet(),
};

/** Whether this object passed the item schema of `list` (the journal's kinds skip it on append). */
export function isCheckedItem(list: CsoList, value: object): boolean {
  return checkedItems[list].has(value);
}

/**
 * Checks one item against its list's item schema and remembers it when it passes, as sealing would
 * (no error: a failing item is left for the seal to name, with its path). Sealing then skips it.
 */
export function checkItem(list: CsoList, item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const checked = checkedItems[list];
  if (checked.has(item)) return true;
  if (!partValidators().items[list](item)) return false;
  checked.add(item);
  return true;
}

function ajv(): Ajv2020 {
  return new Ajv2020({ strict: true, allErrors: false, ownProperties: true, logger: false });
}

function partValidators(): PartValidators {
  if (parts) return parts;
  const a = ajv();
  const properties = CSO_SCHEMA.properties as Record<string, Record<string, unknown>>;
  const { $id: _id, ...schema } = CSO_SCHEMA;
  const header = {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([k, v]) => {
        if (!(LISTS as readonly string[]).includes(k)) return [k, v];
        const { items: _items, ...list } = v;
        return [k, list];
      }),
    ),
  };
  parts = {
    header: a.compile(header),
    items: {
      established_facts: a.compile(properties.established_facts!.items as object),
      decisions: a.compile(properties.decisions!.items as object),
      dependency_graph: a.compile(properties.dependency_graph!.items as object),
    },
  };
  return parts;
}

/**
 * The schema check {@link parseCso} makes, item by item: the CSO without its lists' items, then each
 * item this process has not checked before (a CSO carries most of its items from the last one, by
 * identity). Same verdicts, same paths.
 */
function checkSchemaByParts(
  value: unknown,
  delta?: StepDelta,
): asserts value is CognitiveStateObject {
  const v = partValidators();
  if (!v.header(value)) {
    const error = v.header.errors![0]!;
    invalid(pathOf(error), error.message ?? 'does not match the schema');
  }
  const cso = value as unknown as Record<CsoList, readonly unknown[]>;
  for (const list of LISTS) {
    const check = v.items[list];
    // Stepped from a checked CSO: the items that are not its objects are all there is to check.
    const fresh =
      delta === undefined
        ? undefined
        : list === 'established_facts'
          ? delta.fresh.facts
          : list === 'decisions'
            ? delta.fresh.decisions
            : delta.added;
    const checked = checkedItems[list];
    if (fresh && checkAll(check, checked, fresh)) continue;
    const items = cso[list];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (typeof item === 'object' && item !== null && checked.has(item)) continue;
      if (!check(item)) {
        const error = check.errors![0]!;
        invalid(`/${list}/${i}${pathOf(error)}`, error.message ?? 'does not match the schema');
      }
      checked.add(item as object);
    }
  }
}

/** Whether every item passes `check` (remembered); false at the first that does not. */
function checkAll(
  check: ValidateFunction,
  checked: WeakSet<object>,
  items: readonly object[],
): boolean {
  for (const item of items) {
    if (checked.has(item)) continue;
    if (!check(item)) return false;
    checked.add(item);
  }
  return true;
}

/**
 * {@link parseCso} for a CSO about to be sealed: its items checked once per object (see above) —
 * only those that are not its prior's when `delta` says how its lists were stepped from that
 * checked prior; its references from `prior` when it was stepped from that checked CSO and
 * verified whole (`checkReferencesAfter`), else over the whole CSO.
 */
export function checkSealable(
  value: unknown,
  prior?: CognitiveStateObject,
  delta?: StepDelta,
): CognitiveStateObject {
  const stepped = prior !== undefined && checkedCsos.has(prior);
  const cso = value as CognitiveStateObject;
  const known =
    stepped &&
    delta !== undefined &&
    delta.prior === prior &&
    delta.lists.facts === cso.established_facts &&
    delta.lists.decisions === cso.decisions &&
    delta.lists.graph === cso.dependency_graph
      ? delta
      : undefined;
  checkSchemaByParts(value, known);
  if (stepped) checkReferencesAfter(prior, value, known);
  else checkCsoReferences(value);
  checkedCsos.add(value);
  return value;
}

/** CSOs (by identity) that passed {@link parseCso} or {@link checkSealable}. */
const checkedCsos = new WeakSet<object>();

/** Whether this CSO object passed the checks (so its every edge rests on something, or is flagged). */
export function wasChecked(cso: object): boolean {
  return checkedCsos.has(cso);
}

function invalid(path: string, message: string, details?: Record<string, unknown>): never {
  throw new CanonryError('INVALID_ARGUMENT', `CSO ${path || '(root)'}: ${message}`, {
    path,
    ...details,
  });
}

/** The JSON Pointer of the first problem Ajv found, down to a missing or extra member. */
function pathOf(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const member = params.missingProperty ?? params.additionalProperty;
  return member === undefined ? error.instancePath : `${error.instancePath}/${member}`;
}

/**
 * Validates an untrusted CSO (HTTP body, journal entry, a model-built draft once sealed): the schema
 * first, then {@link checkCsoReferences}. Throws INVALID_ARGUMENT whose message and
 * `details.path` (a JSON Pointer) name the first problem.
 */
export function parseCso(value: unknown): CognitiveStateObject {
  validate ??= new Ajv2020({
    strict: true,
    allErrors: false,
    ownProperties: true,
    logger: false,
  }).compile<CognitiveStateObject>(CSO_SCHEMA);
  if (!validate(value)) {
    const error = validate.errors![0]!;
    invalid(pathOf(error), error.message ?? 'does not match the schema');
  }
  checkCsoReferences(value);
  checkedCsos.add(value);
  return value;
}

/**
 * What the schema cannot check: fact, decision and scratch ids unique and disjoint; items not from a
 * window after this one; every edge an item implies listed in `dependency_graph`, no edge twice;
 * every endpoint known — except that a decision flagged `needs_revision` may still rest on ids that
 * have left the state (that is why it is flagged); a DERIVED fact rests on a fact; no cycle.
 */
export function checkCsoReferences(cso: CognitiveStateObject): void {
  const kinds = new Map<string, 'fact' | 'decision' | 'scratch'>();
  cso.established_facts.forEach((f, i) => {
    const at = `/established_facts/${i}`;
    if (kinds.has(f.fact_id)) invalid(`${at}/fact_id`, `duplicate id ${f.fact_id}`);
    kinds.set(f.fact_id, 'fact');
    if (f.window_origin > cso.window_number) {
      invalid(`${at}/window_origin`, 'is after the window of the CSO');
    }
    if (f.result_hash !== undefined && f.provenance !== 'TOOL') {
      invalid(`${at}/result_hash`, 'only a TOOL fact states a tool result');
    }
  });
  cso.decisions.forEach((d, i) => {
    const at = `/decisions/${i}`;
    if (kinds.has(d.decision_id)) invalid(`${at}/decision_id`, `duplicate id ${d.decision_id}`);
    kinds.set(d.decision_id, 'decision');
    if (d.window_origin > cso.window_number) {
      invalid(`${at}/window_origin`, 'is after the window of the CSO');
    }
  });
  const scratchRef = (provenance: string | undefined, refId: string | undefined, at: string) => {
    if (provenance !== 'TOOL' || refId === undefined) return;
    const kind = kinds.get(refId);
    if (kind === undefined) kinds.set(refId, 'scratch');
    else if (kind !== 'scratch') invalid(at, `scratch id ${refId} is also a ${kind} id`);
  };
  cso.established_facts.forEach((f, i) => {
    scratchRef(f.provenance, f.provenance_ref, `/established_facts/${i}/provenance_ref`);
    if (f.provenance === 'DERIVED' && kinds.get(f.provenance_ref) !== 'fact') {
      invalid(`/established_facts/${i}/provenance_ref`, `names no fact: ${f.provenance_ref}`);
    }
  });
  cso.decisions.forEach((d, i) => {
    scratchRef(d.provenance, d.provenance_ref, `/decisions/${i}/provenance_ref`);
  });

  const flagged = new Set(cso.decisions.filter((d) => d.needs_revision).map((d) => d.decision_id));
  const listed = new Set<string>();
  cso.dependency_graph.forEach((e, i) => {
    const at = `/dependency_graph/${i}`;
    const key = edgeKey(e);
    if (listed.has(key)) invalid(at, 'duplicate edge');
    listed.add(key);
    const kind = kinds.get(e.dependent);
    if (kind === undefined || kind === 'scratch') {
      invalid(`${at}/dependent`, `names no fact or decision: ${e.dependent}`);
    }
    if (!kinds.has(e.depends_on) && !flagged.has(e.dependent)) {
      invalid(`${at}/depends_on`, `names nothing in the state: ${e.depends_on}`);
    }
  });
  for (const e of impliedEdges(cso)) {
    if (!listed.has(edgeKey(e))) {
      invalid('/dependency_graph', `lacks the edge ${e.dependent} → ${e.depends_on}`);
    }
  }
  const cycle = DependencyIndex.fromEdges(cso.dependency_graph).findCycle();
  if (cycle) invalid('/dependency_graph', `has a cycle: ${cycle.join(' → ')}`, { cycle });
}
