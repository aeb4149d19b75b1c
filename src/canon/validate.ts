import {
  CanonryError,
  type ContentHash,
  canonicalize,
  isContentHash,
  type JsonValue,
} from '../core/index.js';
import {
  CLAIM_ID,
  CONFIDENCE_STATES,
  type DependencyPin,
  type NoteContent,
  OBJECT_ID,
  OBJECT_STATUSES,
  OBJECT_TYPES,
  PROPOSAL_INTENTS,
  type ProposalInput,
  type SourceRef,
  VISIBILITIES,
  type Visibility,
} from './types.js';

const TAG = /^[a-z][a-z0-9_-]{0,31}$/;
/** Payload fields that would claim authority; authority comes from the token (§6). */
const AUTHORITY_FIELDS = [
  'actor',
  'authority',
  'role',
  'principal',
  'approved_by',
  'approver',
  'authorized_by',
];

type Raw = Record<string, unknown>;

function bad(message: string, field?: string): never {
  throw new CanonryError('INVALID_PROPOSAL', message, field ? { field } : undefined);
}

function record(value: unknown, what: string): Raw {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    bad(`${what} must be an object`, what);
  return value as Raw;
}

/** Refuses payloads that claim an actor or authority at their top level (`allowed` fields excepted). */
export function refuseAuthorityClaims(value: Raw, allowed: readonly string[] = []): void {
  const claimed = AUTHORITY_FIELDS.find((f) => Object.hasOwn(value, f) && !allowed.includes(f));
  if (claimed !== undefined) {
    throw new CanonryError('AUTHORITY_FROM_PAYLOAD', `the payload may not set ${claimed}`, {
      field: claimed,
    });
  }
}

function only(value: Raw, allowed: readonly string[], what: string): void {
  refuseAuthorityClaims(value);
  const unknown = Object.keys(value).find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    bad(`${what} has an unknown field ${JSON.stringify(unknown.slice(0, 64))}`, unknown);
}

function text(value: unknown, field: string, max: number, min = 1): string {
  if (
    typeof value !== 'string' ||
    value.length < min ||
    value.length > max ||
    !value.isWellFormed()
  ) {
    bad(`${field} must be a string of ${min}–${max} characters`, field);
  }
  return value;
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  field: string,
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) bad(`${field} must be one of ${allowed.join(', ')}`, field);
  return value as T;
}

function list<T>(
  value: unknown,
  field: string,
  max: number,
  item: (v: unknown, i: number) => T,
): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > max)
    bad(`${field} must be a list of at most ${max}`, field);
  return value.map(item);
}

/** Checks an object id. */
export function objectId(value: unknown, field = 'object_id'): string {
  if (typeof value !== 'string' || !OBJECT_ID.test(value)) {
    bad(`${field} must be lowercase letters, digits, . _ - (max 100)`, field);
  }
  return value;
}

/** RFC 3339: a date, or a date-time with its offset (a time without one would be read in the server's zone). */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

function date(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  const parts = typeof value === 'string' ? INSTANT.exec(value) : null;
  const [y, m, d] = (parts ?? []).slice(1, 4).map(Number) as [number, number, number];
  // The engine would roll 2026-02-30 over into March: the calendar date must exist as written.
  const day = parts ? new Date(Date.UTC(y, m - 1, d)) : null;
  if (!day || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
    bad(`${field} must be an RFC 3339 date (2026-01-31) or date-time with offset, or null`, field);
  }
  return value as string;
}

/** The effective window (§2) `[effective_from, effective_until)`: empty windows are refused. */
function window(c: Raw): Pick<NoteContent, 'effective_from' | 'effective_until'> {
  const from = date(c.effective_from, 'effective_from');
  const until = date(c.effective_until, 'effective_until');
  if (from !== null && until !== null && Date.parse(from) >= Date.parse(until)) {
    bad('effective_until must be after effective_from', 'effective_until');
  }
  return { effective_from: from, effective_until: until };
}

function source(value: unknown, i: number): SourceRef {
  const s = record(value, `sources[${i}]`);
  only(s, ['message_id', 'span', 'quote'], `sources[${i}]`);
  const span = s.span;
  if (
    !Array.isArray(span) ||
    span.length !== 2 ||
    !span.every((n) => Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000) ||
    span[0] >= span[1]
  ) {
    bad(`sources[${i}].span must be [start, end) with 0 ≤ start < end`, 'span');
  }
  return {
    message_id: text(s.message_id, `sources[${i}].message_id`, 100),
    span: [span[0], span[1]],
    quote: text(s.quote, `sources[${i}].quote`, 10_000),
  };
}

/** Defaults a caller knows from current canon. */
export interface NoteDefaults {
  /**
   * The visibility of a candidate that does not state one: the object's current one, so an update
   * that leaves the field out never moves a personal note to the project (§14). `project` otherwise.
   */
  readonly visibility?: Visibility;
}

/**
 * `dependency_refs` from outside: ids (canon pins each to its current version when the proposal is
 * made) or `{ object_id, version_hash }` naming the exact version the note was made against.
 */
function dependencies(
  value: unknown,
): Pick<NoteContent, 'dependency_refs'> & { dependency_versions?: DependencyPin[] } {
  const pins = new Map<string, ContentHash | null>();
  list(value, 'dependency_refs', 100, (v) => {
    let id: string;
    let version: ContentHash | null = null;
    if (typeof v === 'string') id = objectId(v, 'dependency_refs');
    else {
      const r = record(v, 'dependency_refs');
      if (
        Object.keys(r).sort().join(',') !== 'object_id,version_hash' ||
        !isContentHash(r.version_hash)
      )
        bad('dependency_refs are ids or exactly { object_id, version_hash }', 'dependency_refs');
      id = objectId(r.object_id, 'dependency_refs');
      version = r.version_hash as ContentHash;
    }
    const seen = pins.get(id);
    if (seen !== undefined && seen !== null && version !== null && seen !== version)
      bad(`dependency_refs names two versions of ${id}`, 'dependency_refs');
    pins.set(id, version ?? seen ?? null);
    return id;
  });
  const ids = [...pins.keys()].sort();
  const pinned = ids
    .filter((id) => pins.get(id))
    .map((id) => ({ object_id: id, version_hash: pins.get(id)! }));
  return pinned.length > 0
    ? { dependency_refs: ids, dependency_versions: pinned }
    : { dependency_refs: ids };
}

/** Checks a candidate note and fills the optional fields with their defaults. */
export function noteContent(value: unknown, defaults: NoteDefaults = {}): NoteContent {
  const c = record(value, 'candidate');
  // A version's content read back and sent again: say where a pin goes instead of "unknown field".
  if (Object.hasOwn(c, 'dependency_versions'))
    bad(
      'dependency_versions is what canon records; to pin a version, list { object_id, version_hash } in dependency_refs (an id alone is pinned to the current version)',
      'dependency_versions',
    );
  only(
    c,
    [
      'object_type',
      'title',
      'text',
      'shape',
      'confidence_state',
      'status',
      'visibility',
      'sources',
      'dependency_refs',
      'effective_from',
      'effective_until',
      'tags',
    ],
    'candidate',
  );
  let shape: JsonValue = null;
  if (c.shape !== undefined) {
    try {
      if (canonicalize(c.shape).length > 65_536) bad('candidate.shape is over 64 KiB', 'shape');
    } catch (err) {
      if (err instanceof CanonryError && err.code === 'INVALID_PROPOSAL') throw err;
      bad('candidate.shape must be JSON', 'shape');
    }
    shape = c.shape as JsonValue;
  }
  if (!OBJECT_TYPES.includes(c.object_type as never))
    bad(`object_type must be one of ${OBJECT_TYPES.join(', ')}`, 'object_type');
  return {
    object_type: c.object_type as NoteContent['object_type'],
    title: text(c.title, 'title', 200),
    text: text(c.text, 'text', 10_000),
    shape,
    confidence_state: oneOf(c.confidence_state, CONFIDENCE_STATES, 'confidence_state', 'asserted'),
    status: oneOf(c.status, OBJECT_STATUSES, 'status', 'active'),
    visibility: oneOf(c.visibility, VISIBILITIES, 'visibility', defaults.visibility ?? 'project'),
    sources: list(c.sources, 'sources', 50, source),
    ...dependencies(c.dependency_refs),
    ...window(c),
    tags: [
      ...new Set(
        list(c.tags, 'tags', 20, (v) => {
          if (typeof v !== 'string' || !TAG.test(v))
            bad('tags are lowercase words (max 32)', 'tags');
          return v;
        }),
      ),
    ].sort(),
  };
}

/**
 * Checks a proposal from outside: every field hostile, authority claims refused. `defaults` come from
 * current canon (the object's visibility, for a candidate that leaves it out).
 */
export function proposalInput(value: unknown, defaults: NoteDefaults = {}): ProposalInput {
  const p = record(value, 'proposal');
  only(
    p,
    [
      'object_id',
      'intent',
      'base_version',
      'candidate',
      'supersedes',
      'restore_version',
      'message_id',
      'rationale',
      'claim_id',
    ],
    'proposal',
  );
  // No default: a proposal that does not say what it asks for is not guessed into an update.
  if (p.intent === undefined) bad(`intent is required: ${PROPOSAL_INTENTS.join(', ')}`, 'intent');
  const intent = oneOf(p.intent, PROPOSAL_INTENTS, 'intent', 'update');
  if (p.base_version !== null && p.base_version !== undefined && !isContentHash(p.base_version)) {
    bad('base_version must be a sha256: hash or null', 'base_version');
  }
  if (p.supersedes !== undefined && intent !== 'supersede')
    bad('supersedes is only for intent supersede', 'supersedes');
  if (
    p.restore_version !== undefined &&
    (intent !== 'restore' || !isContentHash(p.restore_version))
  ) {
    bad('restore_version is a sha256: hash, only for intent restore', 'restore_version');
  }
  const resolution = intent === 'resolve' ? resolveFields(p) : {};
  if (intent !== 'resolve' && p.claim_id !== undefined)
    bad('claim_id is only for intent resolve', 'claim_id');
  return {
    object_id: objectId(p.object_id),
    intent,
    base_version: (p.base_version as ProposalInput['base_version']) ?? null,
    candidate: noteContent(p.candidate, defaults),
    ...(intent === 'supersede'
      ? { supersedes: list(p.supersedes, 'supersedes', 20, (v) => objectId(v, 'supersedes')) }
      : {}),
    ...(p.restore_version !== undefined
      ? { restore_version: p.restore_version as ProposalInput['restore_version'] }
      : {}),
    message_id:
      p.message_id === undefined || p.message_id === null
        ? null
        : text(p.message_id, 'message_id', 100),
    ...(p.rationale !== undefined ? { rationale: text(p.rationale, 'rationale', 2_000, 0) } : {}),
    ...resolution,
  };
}

/** A resolution names the open claim that stands and must say why (§15). */
function resolveFields(p: Raw): { claim_id: string; rationale: string } {
  if (typeof p.claim_id !== 'string' || !CLAIM_ID.test(p.claim_id))
    bad('claim_id must name an open claim (claim_ and 16 hex digits)', 'claim_id');
  const rationale = text(p.rationale, 'rationale', 2_000);
  if (rationale.trim() === '') bad('rationale must say why the claim stands', 'rationale');
  return { claim_id: p.claim_id, rationale };
}
