import type { StepBudget } from '../budget.js';
import type { Marks } from './annotations.js';
import type { FanOut } from './bound.js';
import type { Coefficients } from './cost.js';

/** One reason a value failed validation, located by JSON pointers (values are never echoed). */
export interface ValidationError {
  /** RFC 6901 pointer to the failing part of the instance ('' is the instance itself). */
  instancePath: string;
  /** Where the failing keyword sits: the schema document ('' for the root) and a `#` pointer. */
  schemaPath: string;
  /** The keyword that failed. */
  keyword: string;
}

/** The outcome of validating one value; `errors` holds the first error found when invalid. */
export interface ValidationResult {
  valid: boolean;
  errors: ValidationError[];
  /** The step budget ran out before a decision: invalid, deterministically. */
  exhausted?: boolean;
}

/** Options for {@link compileSchema}. */
export interface ValidatorOptions {
  /** Treat `format` as an assertion (ajv-formats' checks) rather than an annotation. */
  formatAssertion?: boolean;
  /** Extra schema documents by absolute URI that `$ref` and `$schema` may reach; nothing is fetched. */
  remotes?: Readonly<Record<string, unknown>>;
  /** Steps one location may take before {@link Validator.fanOut} blames the innermost schema. */
  fanOutLimit?: number;
  /** The schema and remotes are private JSON copies nobody will change: compile them as they are. */
  owned?: boolean;
}

/** A schema document other than the root that a compiled schema depends on. */
export interface DocumentRef {
  /** The URI the document was registered under. */
  readonly uri: string;
  /** The document as registered (read-only). */
  readonly schema: unknown;
}

/** A compiled JSON Schema 2020-12: a pure, synchronous, deterministic check. */
export interface Validator {
  /**
   * Validates any value, charging `budget` (by default a fresh one of EVALUATION_BUDGET.constraints
   * steps); never throws. Running out of steps gives `{ valid: false, exhausted: true }`.
   */
  validate(value: unknown, budget?: StepBudget): ValidationResult;
  /** Remote or built-in documents whose schemas evaluation can reach, or whose `$vocabulary` applies. */
  readonly documents: readonly DocumentRef[];
  /**
   * The costliest in-place fan-out: the fixed steps of applying a schema, with everything it applies
   * in place, at one location (see bound.ts); past `fanOutLimit`, the innermost schema that passes it.
   */
  readonly fanOut: FanOut;
  /** A cost vector bounding every location of any instance, or null (see bound.ts); memoized. */
  perLocationBound(): Coefficients | null;
}

/** The vocabularies of 2020-12 a schema resource uses, by short name (`applicator`, `validation`…). */
export type Vocabularies = ReadonlySet<string>;

/** A schema resource: a document root or a subschema with `$id`, with its anchors. */
export interface Resource {
  /** Absolute URI without fragment. */
  readonly uri: string;
  /** The resource's root schema. */
  readonly root: unknown;
  /** The enclosing resource (vocabularies are inherited from it), if any. */
  readonly parent: Resource | null;
  /** `$schema` of the resource root, resolved; null when absent. */
  readonly dialect: string | null;
  /** The document the resource lives in. */
  readonly document: SchemaDocument;
  /** `$anchor` and `$dynamicAnchor` names to their schemas. */
  readonly anchors: Map<string, object>;
  /** `$dynamicAnchor` names to their schemas. */
  readonly dynamicAnchors: Map<string, object>;
  /** Compiled `$dynamicAnchor` schemas that some `$dynamicRef` may land on (filled by the compiler). */
  readonly dynamic: Map<string, Compiled>;
  /** Vocabularies, computed on first use. */
  vocabularies: Vocabularies | null;
}

/** A registered JSON document holding schemas. */
export interface SchemaDocument {
  /** The URI it was registered under. */
  readonly uri: string;
  /** Prefix of schema paths into it: '' for the root schema, else the URI. */
  readonly label: string;
  /** The whole document. */
  readonly root: unknown;
  /** Whether it is the schema being compiled (as opposed to a remote or built-in one). */
  readonly isRoot: boolean;
}

/** Where a schema object sits: its base URI, resource and pointer within its document. */
export interface NodeInfo {
  readonly base: string;
  readonly resource: Resource;
  readonly pointer: string;
}

/** The instance location being validated, as a linked list of reference tokens (null is the root). */
export interface Location {
  readonly parent: Location | null;
  readonly token: string | number;
}

/** The dynamic scope: the schema resources entered so far, innermost first. */
export interface Scope {
  readonly resource: Resource;
  readonly outer: Scope | null;
}

/** The first failure on the current path: where, and which keyword; made a pointer at the end. */
export interface Failure {
  readonly at: Location | null;
  schemaPath: string;
  readonly keyword: string;
}

/** Mutable state of one validation run. */
export interface Run {
  /** Charged as evaluation goes; throws BUDGET_EXHAUSTED once spent. */
  readonly budget: StepBudget;
  /** The first failure recorded on the current failure path; reset when a failure is tolerated. */
  error: Failure | null;
  /** Nested schema evaluations in progress. */
  depth: number;
  /** Set once the depth bound is hit: the whole run is then invalid, whatever `not` makes of it. */
  exhausted: Failure | null;
}

/** A compiled keyword: true when the instance satisfies it (annotations go into `marks`, if given). */
export type Check = (
  run: Run,
  instance: unknown,
  at: Location | null,
  scope: Scope,
  marks: Marks | null,
) => boolean;

/**
 * How a subschema applies to a child of the location, for the static bounds: a property value gets
 * at most one `property` or `additional` schema plus every `pattern` and `unevaluatedProperty`; an
 * item one `prefix` or `items` schema plus `contains` and `unevaluatedItem`; a property name the
 * `name` schemas.
 */
export type Slot =
  | 'property'
  | 'additional'
  | 'pattern'
  | 'unevaluatedProperty'
  | 'prefix'
  | 'items'
  | 'contains'
  | 'unevaluatedItem'
  | 'name';

/** A compiled schema object. */
export interface SchemaNode {
  /** Keyword checks in evaluation order (`unevaluated*` last). */
  readonly checks: { readonly keyword: string; readonly check: Check; readonly path: string }[];
  /** Schemas applied to the same instance location (for `$ref` cycle detection and the bounds). */
  readonly inPlace: Compiled[];
  /** Schemas applied to children of the location, with their slot (for the bounds). */
  readonly children: { readonly slot: Slot; readonly schema: Compiled }[];
  /** Steps charged each time the schema is applied: the node and one per keyword. */
  steps: number;
  /** What applying it costs at one location, beyond its subschemas (see cost.ts). */
  readonly cost: Coefficients;
  /** A keyword whose cost no static bound covers (a dynamic `$ref`): the bounds are infinite. */
  unbounded: boolean;
  resource: Resource;
  /** `label#pointer` of the schema object, for error reports. */
  readonly path: string;
  /** Whether the node collects its own annotations (it has `unevaluated*`). */
  ownMarks: boolean;
}

/** A compiled schema: a boolean schema or a schema object. */
export type Compiled = boolean | SchemaNode;
