import { type ContentHash, fail, ok, type Result } from '../core/index.js';
import {
  type AdaptiveArtifactRefs,
  CAPABILITIES,
  CREATORS,
  EVENT_TYPES,
  type QualifiedEvent,
  READOUT_KINDS,
  type ReplayContract,
  type Scores,
} from './event-types.js';
import type { EvolutionIssue } from './issues.js';
import { readProvenance } from './parse-asset.js';
import { GOVERNANCE_FIELDS, readGovernance } from './parse-governance.js';
import {
  FieldError,
  hash,
  id,
  idList,
  idSet,
  join,
  jsonObject,
  knownKeys,
  oneOf,
  record,
  sortedUnique,
  text,
  timestamp,
  unit,
  uuid,
} from './read-fields.js';
import {
  DECODED_MAJOR,
  EVENT_SCHEMA_FAMILY,
  KNOWN_MINOR,
  readSchemaVersion,
  type SchemaVersion,
} from './schema-version.js';

/** The members of a v1 event this build knows, the spec's and canonry's two optional ones. */
export const EVENT_FIELDS: ReadonlySet<string> = new Set([
  'schema_version',
  'event_id',
  'request_id',
  'session_id',
  'event_type',
  'source_assets',
  'source_policy_hashes',
  'model_and_expert_versions',
  'adaptive_artifact_refs',
  'policy_hash',
  'tenant_scope',
  'owner_id',
  'creator',
  'source_node',
  ...GOVERNANCE_FIELDS,
  'provenance',
  'outcome',
  'scores',
  'created_at',
  'signing_identity',
  'signing_certificate',
  'signature',
  'replay',
]);

const REFS_KEYS = new Set([
  'model_lineage_id',
  'target_expert_id',
  'capability',
  'judgment_family',
  'distillation_view_ref',
  'state_shard_ref',
  'branch_shard_ref',
  'adapter_or_head_version',
  'readout_kind',
]);
const SCORE_KEYS = [
  'confidence',
  'verification',
  'grounding',
  'execution_success',
  'user_feedback',
] as const;
const SCORE_KEY_SET: ReadonlySet<string> = new Set(SCORE_KEYS);
const REPLAY_KEYS = new Set([
  'plan_ref',
  'components',
  'policy_versions',
  'context_packet_hash',
  'tool_contracts',
  'seeds',
  'execution_class',
  'validators',
]);
const COMPONENT_KEYS = [
  'model',
  'adapter',
  'tokenizer_template',
  'quantization',
  'processor',
  'runtime',
] as const;
const COMPONENT_KEY_SET: ReadonlySet<string> = new Set(COMPONENT_KEYS);
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/;
/** A certificate PEM is well under this; the chain check reads it as hostile input. */
const MAX_CERTIFICATE = 16_384;

/** A parsed event, the version it was made under, and the members a newer minor added. */
export interface ParsedQualifiedEvent {
  readonly event: QualifiedEvent;
  readonly version: SchemaVersion;
  /** Members unknown to this build, kept as they are (a newer minor's optional fields). */
  readonly extensions: readonly string[];
}

/**
 * Reads a qualified cognitive event as untrusted input. The schema version comes first: another
 * family, another major or a malformed spelling is `UNSUPPORTED_SCHEMA_VERSION`; a newer minor of
 * major 1 is read with its unknown members kept (they are signed over), the version this build
 * writes admits no unknown member. Then `EVENT_UNSIGNED` when the signature or signing identity is
 * missing, else `INVALID_QUALIFIED_EVENT` naming the first field at fault. The event keeps the
 * version it was made under. Checks no signature: that is {@link verifyQualifiedEvent}'s work.
 */
export function parseQualifiedEvent(input: unknown): Result<ParsedQualifiedEvent, EvolutionIssue> {
  try {
    return ok(readEvent(input));
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return fail({
      code: error.code ?? 'INVALID_QUALIFIED_EVENT',
      message: error.path === '' ? error.message : `${error.path}: ${error.message}`,
      path: error.path,
    });
  }
}

function readVersion(value: unknown): SchemaVersion {
  if (value === undefined) {
    throw new FieldError('schema_version', 'is required', 'UNSUPPORTED_SCHEMA_VERSION');
  }
  const version = typeof value === 'string' ? readSchemaVersion(value) : null;
  if (version === null) {
    const why =
      typeof value === 'string' && value.startsWith(`${EVENT_SCHEMA_FAMILY}.`)
        ? `is not spelled ${EVENT_SCHEMA_FAMILY}.v<major>[.<minor ≥ 1>]`
        : `is not a ${EVENT_SCHEMA_FAMILY} version`;
    throw new FieldError('schema_version', why, 'UNSUPPORTED_SCHEMA_VERSION');
  }
  if (version.major !== DECODED_MAJOR) {
    throw new FieldError(
      'schema_version',
      `major ${version.major} is another decoding contract; this build decodes major ${DECODED_MAJOR}`,
      'UNSUPPORTED_SCHEMA_VERSION',
    );
  }
  return version;
}

function readEvent(input: unknown): ParsedQualifiedEvent {
  const e = record(input, '');
  const version = readVersion(e.schema_version);
  if (e.signature === undefined || e.signature === '' || e.signing_identity === undefined) {
    throw new FieldError(
      e.signature === undefined || e.signature === '' ? 'signature' : 'signing_identity',
      'the event is not signed',
      'EVENT_UNSIGNED',
    );
  }
  const extensions: string[] = [];
  for (const key of Object.keys(e)) if (!EVENT_FIELDS.has(key)) extensions.push(key);
  if (extensions.length > 0) {
    if (version.minor <= KNOWN_MINOR) knownKeys(e, EVENT_FIELDS, '');
    jsonObject(Object.fromEntries(extensions.map((k) => [k, e[k]])), '');
  }
  if (typeof e.signature !== 'string' || !SIGNATURE.test(e.signature)) {
    throw new FieldError('signature', 'must be 86 characters of base64url (an Ed25519 signature)');
  }
  const event = readDescription(e) as Record<string, unknown>;
  event.schema_version = e.schema_version;
  event.source_assets = nonEmpty(idSet(e.source_assets, 'source_assets', true), 'source_assets');
  event.source_policy_hashes = nonEmpty(
    readHashSet(e.source_policy_hashes),
    'source_policy_hashes',
  );
  event.policy_hash = hash(e.policy_hash, 'policy_hash');
  Object.assign(event, readGovernance(e, '', true));
  event.provenance = readProvenance(e.provenance, 'provenance', true);
  event.signing_identity = hash(e.signing_identity, 'signing_identity');
  if (e.signing_certificate !== undefined) {
    event.signing_certificate = text(e.signing_certificate, 'signing_certificate', MAX_CERTIFICATE);
  }
  event.signature = e.signature;
  // Own data members, whatever their names (`record` has refused the ones JavaScript reads otherwise).
  for (const key of extensions) {
    Object.defineProperty(event, key, { value: e[key], enumerable: true, writable: true });
  }
  return { event: event as unknown as QualifiedEvent, version, extensions };
}

/** The members of an event that describe the work rather than bind or govern it. */
export type EventDescription = Pick<
  QualifiedEvent,
  | 'event_id'
  | 'request_id'
  | 'session_id'
  | 'event_type'
  | 'model_and_expert_versions'
  | 'adaptive_artifact_refs'
  | 'tenant_scope'
  | 'owner_id'
  | 'creator'
  | 'source_node'
  | 'outcome'
  | 'scores'
  | 'created_at'
  | 'replay'
>;

/**
 * Reads the descriptive members of an event (or of a draft about to be signed), leaving absent
 * optional members out. Throws {@link FieldError}.
 */
export function readDescription(e: Record<string, unknown>): EventDescription {
  const out: Record<string, unknown> = {
    event_id: uuid(e.event_id, 'event_id'),
    request_id: uuid(e.request_id, 'request_id'),
    event_type: oneOf(e.event_type, EVENT_TYPES, 'event_type'),
    model_and_expert_versions: idList(e.model_and_expert_versions, 'model_and_expert_versions'),
    adaptive_artifact_refs: readRefs(e.adaptive_artifact_refs),
    creator: oneOf(e.creator, CREATORS, 'creator'),
    source_node: id(e.source_node, 'source_node'),
    outcome: jsonObject(e.outcome, 'outcome'),
    scores: readScores(e.scores),
    created_at: timestamp(e.created_at, 'created_at'),
  };
  if (e.session_id !== undefined) out.session_id = uuid(e.session_id, 'session_id');
  if (e.tenant_scope !== undefined) out.tenant_scope = id(e.tenant_scope, 'tenant_scope');
  if (e.owner_id !== undefined) out.owner_id = id(e.owner_id, 'owner_id');
  if (e.replay !== undefined) out.replay = readReplay(e.replay);
  return out as unknown as EventDescription;
}

function nonEmpty<T>(list: T[], path: string): T[] {
  if (list.length === 0) throw new FieldError(path, 'must name at least one');
  return list;
}

function readHashSet(value: unknown): ContentHash[] {
  if (!Array.isArray(value)) throw new FieldError('source_policy_hashes', 'must be an array');
  const list = value.map((item, i) => hash(item, join('source_policy_hashes', i)));
  return sortedUnique(list, 'source_policy_hashes');
}

function readRefs(value: unknown): AdaptiveArtifactRefs {
  const path = 'adaptive_artifact_refs';
  const r = record(value, path);
  knownKeys(r, REFS_KEYS, path);
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(r)) {
    if (key === 'capability') out[key] = oneOf(v, CAPABILITIES, join(path, key));
    else if (key === 'readout_kind') out[key] = oneOf(v, READOUT_KINDS, join(path, key));
    else out[key] = id(v, join(path, key));
  }
  return out;
}

function readScores(value: unknown): Scores {
  const s = record(value, 'scores');
  knownKeys(s, SCORE_KEY_SET, 'scores');
  const out: Record<string, number> = {};
  for (const key of SCORE_KEYS) {
    if (s[key] !== undefined) out[key] = unit(s[key], join('scores', key));
  }
  return out;
}

function readReplay(value: unknown): ReplayContract {
  const r = record(value, 'replay');
  knownKeys(r, REPLAY_KEYS, 'replay');
  const out: Record<string, unknown> = {};
  if (r.plan_ref !== undefined) out.plan_ref = id(r.plan_ref, 'replay.plan_ref');
  if (r.execution_class !== undefined) {
    out.execution_class = id(r.execution_class, 'replay.execution_class');
  }
  if (r.context_packet_hash !== undefined) {
    out.context_packet_hash = hash(r.context_packet_hash, 'replay.context_packet_hash');
  }
  for (const key of ['policy_versions', 'tool_contracts', 'validators'] as const) {
    if (r[key] !== undefined) out[key] = idList(r[key], join('replay', key));
  }
  if (r.seeds !== undefined) {
    if (!Array.isArray(r.seeds) || r.seeds.length > 64) {
      throw new FieldError('replay.seeds', 'must be an array of at most 64 integers');
    }
    out.seeds = r.seeds.map((seed, i) => {
      if (!Number.isSafeInteger(seed))
        throw new FieldError(join('replay.seeds', i), 'must be an integer');
      return seed as number;
    });
  }
  if (r.components !== undefined) {
    const c = record(r.components, 'replay.components');
    knownKeys(c, COMPONENT_KEY_SET, 'replay.components');
    out.components = Object.fromEntries(
      Object.entries(c).map(([key, v]) => [key, id(v, join('replay.components', key))]),
    );
  }
  return out as ReplayContract;
}
