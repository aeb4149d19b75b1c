import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { CanonryError, fail, type JsonValue, ok, type Result } from '../core/index.js';
import type { EntryInput, JournalEntry } from './types.js';

/** Why a body does not match its kind: where in the body, and which schema rule refused it. */
export interface BodyIssue {
  readonly kind: string;
  /** JSON Pointer into the body (`''` for the body itself). */
  readonly path: string;
  /** The schema rule that failed, as a JSON Pointer fragment (`#/properties/version/required`). */
  readonly schema_path: string;
  readonly message: string;
}

/** A JSON Schema (draft 2020-12) object, as a kind declares it. */
export type BodySchema = Readonly<Record<string, unknown>>;

/** What a module declares for one kind of entry. */
export interface EntryKindSpec<B, P = never> {
  /** Dotted lowercase name (`canon.commit`). */
  readonly kind: string;
  /** The body's version: 1 is stored under the bare name, n > 1 as `<kind>.v<n>`. */
  readonly version: number;
  /** The body's JSON Schema; it must accept every body this version ever wrote. */
  readonly schema: BodySchema;
  /** The version before this one and how its bodies read as this one's. */
  readonly previous?: { readonly kind: EntryKind<P>; readonly upgrade: (body: P) => B };
  /**
   * What a live feed may show of an entry beside its place in the chain: ids, versions, outcomes —
   * never its text, reasoning or secrets. Without it a feed shows no summary.
   */
  readonly summary?: (body: B) => EntrySummary;
  /**
   * Parts of a body the declaring module may already have checked against the same schema, by
   * name (see {@link checkedPart}): a predicate that says whether this very object (by identity)
   * passed it. A part that did is not checked again on append; on replay nothing was, so every
   * part is.
   */
  readonly checked?: Readonly<Record<string, (value: object) => boolean>>;
}

/** The fields of an entry besides its kind and body (see {@link EntryInput}). */
export type EntryMeta = Omit<EntryInput, 'kind' | 'body'>;

/** A kind's public summary of one entry (see {@link EntryKindSpec.summary}). */
export type EntrySummary = { readonly [field: string]: JsonValue };

/** An entry whose body is known to be its kind's. */
export type TypedEntry<B> = JournalEntry & { readonly body: B };

/**
 * One kind of journal entry: its stored name, its version and the check its bodies pass, on append
 * and on replay. Build with {@link defineEntryKind}; register with {@link EntryKinds}.
 */
export interface EntryKind<B> {
  /** The name entries of this version are stored under. */
  readonly kind: string;
  /** The name shared by every version. */
  readonly name: string;
  readonly version: number;
  /** Earlier versions whose entries this one reads (upgraded), newest first. */
  readonly previous: readonly EntryKind<unknown>[];
  /** Every stored kind this version reads: its own, then its earlier versions' (newest first). */
  readonly kinds: readonly string[];
  /** Checks a body against this version's schema. */
  check(body: unknown): Result<B, BodyIssue>;
  /** An append input of this kind; the body's type is the kind's. */
  input(body: B, meta: EntryMeta): EntryInput;
  /** The entry's body as this version (upgraded from an earlier one), or why it is not one. */
  read(entry: JournalEntry): Result<B, BodyIssue>;
  /** Whether the entry is of this kind (any version it reads) with a body that matches. */
  is(entry: JournalEntry): entry is TypedEntry<B>;
  /** The kind's public summary of the entry; null without one, or for a body that does not match. */
  summary(entry: JournalEntry): EntrySummary | null;
  /** The entry's body as this version: checked (and upgraded); ENTRY_BODY_INVALID otherwise. */
  body(entry: JournalEntry): B;
}

/**
 * One Ajv for every kind: schemas are canonry's own, so strict mode holds them to keywords Ajv
 * knows. Each validator is compiled the first time it runs, not when its module loads.
 */
let ajv: Ajv2020 | undefined;

/** The schema keyword {@link checkedPart} writes: the name of a set of objects checked already. */
const CHECKED_KEYWORD = 'canonryChecked';

/** Each name a kind declared in `checked`, with its predicate (one per name across kinds). */
const checkedSets = new Map<string, (value: object) => boolean>();

function compile<B>(schema: BodySchema): ValidateFunction<B> {
  if (!ajv) {
    ajv = new Ajv2020({ strict: true, allErrors: false, ownProperties: true, logger: false });
    ajv.addKeyword({
      keyword: CHECKED_KEYWORD,
      schemaType: 'string',
      errors: false,
      validate: (name: string, data: unknown) =>
        typeof data === 'object' && data !== null && checkedSets.get(name)?.(data) === true,
    });
  }
  return ajv.compile<B>(schema);
}

/**
 * A part of a kind's schema that an object the module checked against `schema` already passes
 * without a second look (the kind names `name` in its `checked`); any other value, and every value
 * on replay, is checked against `schema`, and a refusal reads as the schema's own.
 */
export function checkedPart(name: string, schema: BodySchema): BodySchema {
  // No `then`: a value the `if` accepts is valid as it is.
  return { if: { [CHECKED_KEYWORD]: name }, else: schema };
}

/** Entries this process built from checked inputs or checked on replay: not checked again. */
const checked = new WeakSet<JournalEntry>();

/** Marks an entry whose body was checked against its kind (the journal's own use). */
export function markChecked(entry: JournalEntry): void {
  checked.add(entry);
}

/** The stored name of version `version` of `kind`. */
export function storedKind(kind: string, version: number): string {
  return version === 1 ? kind : `${kind}.v${version}`;
}

/** The error for a body that does not match its kind, with the issue in `details`. */
export function bodyError(issue: BodyIssue, seq?: number): CanonryError {
  const at = seq === undefined ? '' : ` at seq ${seq}`;
  return new CanonryError(
    'ENTRY_BODY_INVALID',
    `the body of ${issue.kind}${at} does not match its schema: ${issue.path || '/'} ${issue.message}`,
    { ...(seq === undefined ? {} : { seq }), ...issue },
  );
}

/**
 * Declares a kind of entry. The type parameter is the body's type; the schema checks it at run time
 * (the two are kept together in the module that owns the kind).
 *
 * @example
 * const NOTE = defineEntryKind<{ text: string }>({
 *   kind: 'demo.note', version: 1,
 *   schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
 * });
 * await journal.append('p', NOTE.input({ text: 'hi' }, { actor: 'me' }));
 */
export function defineEntryKind<B, P = never>(spec: EntryKindSpec<B, P>): EntryKind<B> {
  if (!Number.isSafeInteger(spec.version) || spec.version < 1)
    throw new TypeError(`${spec.kind}: a kind's version is an integer ≥ 1`);
  const prior = spec.previous;
  if (prior && prior.kind.version >= spec.version)
    throw new TypeError(`${spec.kind}: the previous version must be older`);
  const stored = storedKind(spec.kind, spec.version);
  for (const [name, has] of Object.entries(spec.checked ?? {})) {
    const known = checkedSets.get(name);
    if (known !== undefined && known !== has)
      throw new TypeError(`${spec.kind}: checked part ${name} is declared twice`);
    checkedSets.set(name, has);
  }
  let validate: ValidateFunction<B> | undefined;
  const check = (body: unknown): Result<B, BodyIssue> => {
    validate ??= compile<B>(spec.schema);
    if (validate(body)) return ok(body);
    const error = validate.errors?.[0];
    return fail({
      kind: stored,
      path: error?.instancePath ?? '',
      schema_path: error?.schemaPath ?? '#',
      message: error?.message ?? 'does not match',
    });
  };
  const read = (entry: JournalEntry): Result<B, BodyIssue> => {
    if (entry.kind === stored) return checked.has(entry) ? ok(entry.body as B) : check(entry.body);
    if (prior?.kind.kinds.includes(entry.kind)) {
      const older = prior.kind.read(entry);
      return older.ok ? ok(prior.upgrade(older.value)) : fail(older.issues[0]!);
    }
    return fail({
      kind: entry.kind,
      path: '',
      schema_path: '#',
      message: `is not a ${stored} entry`,
    });
  };
  return {
    kind: stored,
    name: spec.kind,
    version: spec.version,
    previous: prior ? [prior.kind, ...prior.kind.previous] : [],
    kinds: [stored, ...(prior ? [prior.kind, ...prior.kind.previous].map((k) => k.kind) : [])],
    check,
    input: (body, meta) => ({ ...meta, kind: stored, body }),
    read,
    is: (entry): entry is TypedEntry<B> => entry.kind === stored && read(entry).ok,
    summary(entry) {
      if (spec.summary === undefined) return null;
      const result = read(entry);
      return result.ok ? spec.summary(result.value) : null;
    },
    body(entry) {
      const result = read(entry);
      if (!result.ok) throw bodyError(result.issues[0]!, entry.seq);
      return result.value;
    },
  };
}

/**
 * The kinds a journal accepts: each module declares its own and the composition root registers them
 * all. An append of a kind not registered is UNKNOWN_ENTRY_KIND; earlier versions of a registered
 * kind are registered with it, so old entries still replay.
 */
export class EntryKinds {
  readonly #byKind = new Map<string, EntryKind<unknown>>();

  constructor(kinds: Iterable<EntryKind<unknown>> = []) {
    for (const kind of kinds) this.register(kind);
  }

  /** Adds a kind (and its earlier versions); a second, different kind under one name is a bug. */
  register(kind: EntryKind<unknown>): this {
    for (const one of [kind, ...kind.previous]) {
      const known = this.#byKind.get(one.kind);
      if (known !== undefined && known !== one)
        throw new TypeError(`entry kind ${one.kind} is declared twice`);
      this.#byKind.set(one.kind, one);
    }
    return this;
  }

  /** The kind stored under `name`, if registered. */
  get(name: string): EntryKind<unknown> | undefined {
    return this.#byKind.get(name);
  }

  /** The public summary of an entry by its registered kind; null for a kind it does not know. */
  summaryOf(entry: JournalEntry): EntrySummary | null {
    return this.#byKind.get(entry.kind)?.summary(entry) ?? null;
  }

  /** Every registered stored name, sorted. */
  names(): string[] {
    return [...this.#byKind.keys()].sort();
  }

  /** Checks an append's body: UNKNOWN_ENTRY_KIND or INVALID_ENTRY (with the issue) if it fails. */
  checkBody(kind: string, body: unknown): void {
    const known = this.#byKind.get(kind);
    if (known === undefined) {
      throw new CanonryError('UNKNOWN_ENTRY_KIND', `no entry kind ${kind} is registered`, {
        kind,
      });
    }
    const result = known.check(body);
    if (!result.ok) {
      const issue = result.issues[0]!;
      throw new CanonryError(
        'INVALID_ENTRY',
        `the body of ${kind} does not match its schema: ${issue.path || '/'} ${issue.message}`,
        { ...issue },
      );
    }
  }

  /**
   * Checks a stored entry on replay: ENTRY_BODY_INVALID naming its seq, kind and schema path, or
   * UNKNOWN_ENTRY_KIND for a kind nobody registered.
   */
  checkStored(entry: JournalEntry): void {
    const known = this.#byKind.get(entry.kind);
    if (known === undefined) {
      throw new CanonryError(
        'UNKNOWN_ENTRY_KIND',
        `entry ${entry.seq} of ${entry.project} is of kind ${entry.kind}, which is not registered`,
        { seq: entry.seq, kind: entry.kind },
      );
    }
    const result = known.check(entry.body);
    if (!result.ok) throw bodyError(result.issues[0]!, entry.seq);
    checked.add(entry);
  }
}
