import { CanonryError, type ContentHash } from '../core/index.js';
import type { Receipt } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { type ArtifactStatus, artifactState } from './artifacts.js';
import type { Canon, Viewer } from './canon.js';
import type { DependencyState } from './cascade.js';
import { type EffectiveState, effectiveState } from './effective.js';
import type { ProposalRecord } from './records.js';
import type {
  CanonObject,
  Claim,
  DependencyPin,
  DisputeResolution,
  NoteVersion,
  ObjectStatus,
  ObjectType,
} from './types.js';

/** What kind of knowing an object is (§8 last question). */
export type Epistemic =
  | 'fact'
  | 'preference'
  | 'policy'
  | 'decision'
  | 'inference'
  | 'uncertainty'
  | 'dispute'
  | 'other';

/** The answers of a provenance walk (§8), one field per question. */
export interface Provenance {
  readonly object: CanonObject;
  /** Is it in effect now (§2 effective window, at canon's clock)? Only `in_effect` is current canon. */
  readonly effective: EffectiveState;
  /** What it depends on, and whether each still stands: a dependency out of effect is shown, not hidden. */
  readonly depends_on: readonly {
    object_id: string;
    status: ObjectStatus | 'unknown';
    effective: EffectiveState | null;
  }[];
  /**
   * Does it rest on something that moved? `needs_revision` with the cause, the path through the
   * graph and the depth (LCSM §10, CRP-030 §3), or null. `made_against` is the exact version of
   * each dependency the current version was made against.
   */
  readonly dependency_state: DependencyState | null;
  readonly made_against: readonly DependencyPin[];
  /** Why does the project believe this? Which source supports it? */
  readonly why: {
    readonly statement: string;
    readonly confidence: string;
    readonly sources: readonly {
      message_id: string;
      span: readonly [number, number];
      quote: string;
      speaker: string;
      actor: string;
    }[];
  };
  /** When did this become current? */
  readonly current_since: {
    readonly version_id: number;
    readonly timestamp: string;
    readonly receipt_ref: string;
    readonly receipt: Receipt | null;
  };
  /** Who authorized it? */
  readonly authorized_by: {
    readonly proposer: { id: string; role: string } | null;
    readonly approver: { id: string; role: string } | null;
    readonly gate: string | null;
    readonly stakes: string | null;
    readonly gate_event: ContentHash | null;
    readonly gate_protocol: ContentHash | null;
  };
  /** What did it replace? */
  readonly replaced: {
    readonly previous_version: NoteVersion | null;
    readonly superseded_objects: readonly CanonObject[];
  };
  /** Which artifact was built from the old version? */
  readonly built_from_old: readonly { artifact_id: string; version_id: number }[];
  /** What becomes stale if this changes? */
  readonly stale_if_changed: {
    readonly artifacts: readonly ArtifactStatus[];
    readonly objects: readonly string[];
    /**
     * More notes or artifacts rest on it than the walk lists ({@link PROVENANCE_DEPENDENTS} of
     * each, in id order; `built_from_old` is of those artifacts): the dependents graph reads on.
     */
    readonly cut: boolean;
  };
  /** Can it be restored, and to what? The versions of `history` but the current one. */
  readonly restorable: readonly {
    version_id: number;
    version_hash: ContentHash;
    timestamp: string;
    text: string;
  }[];
  /**
   * The claims its disputes have held (§15), each with its holders, sources, authority and state
   * (`open` while disputed; `stands`, `set_aside` or `collapsed` once settled): settled claims stay.
   */
  readonly claims: readonly Claim[];
  /** When the current version resolved a dispute: the claim that stands, and why. */
  readonly resolution: DisputeResolution | null;
  /** Is it fact, preference, policy, inference, or unresolved uncertainty? */
  readonly epistemic: Epistemic;
  /** Its latest versions, at most {@link PROVENANCE_HISTORY}, oldest first; `listVersions` pages the rest. */
  readonly history: readonly NoteVersion[];
  /** How many versions it has (that the viewer may read): more than `history` holds when it is long. */
  readonly versions: number;
}

/** The versions a provenance walk shows: the latest this many, whatever an object's age. */
export const PROVENANCE_HISTORY = 50;

/** The notes, and the artifacts, resting on an object that a provenance walk lists: this many. */
export const PROVENANCE_DEPENDENTS = 100;

function epistemic(type: ObjectType, confidence: string, status: string): Epistemic {
  if (status === 'disputed' || type === 'dispute') return 'dispute';
  if (type === 'uncertainty' || type === 'question' || confidence === 'uncertain')
    return 'uncertainty';
  if (confidence === 'inferred') return 'inference';
  if (type === 'fact') return 'fact';
  if (type === 'preference') return 'preference';
  if (type === 'policy' || type === 'constraint' || type === 'permission' || type === 'instruction')
    return 'policy';
  if (type === 'decision' || type === 'plan') return 'decision';
  return 'other';
}

/**
 * Walks an object's provenance (§8) through its versions, their sources in the archive, the proposals
 * and signed gate verdicts that authorized them, the journal receipts, and the artifacts built on them
 * — as `viewer` may read them (§14): a note, version, artifact or message of another principal's
 * personal plane is not there, and an object the viewer may not read is UNKNOWN_OBJECT.
 */
export async function provenance(
  canon: Canon,
  viewer: Viewer,
  objectId: string,
  db?: Pick<Queryable, 'all'>,
): Promise<Provenance> {
  const reader = canon.readerAs(viewer, db);
  const project = reader.project;
  const now = canon.now();
  const object = await reader.object(objectId);
  if (!object) throw new CanonryError('UNKNOWN_OBJECT', `no object ${objectId}`);
  // The latest versions, and only those: an object's age does not grow the walk.
  const history = (
    await reader.versionPage(objectId, { order: 'newest', limit: PROVENANCE_HISTORY })
  ).reverse();
  const inHistory = async (hash: ContentHash | null | undefined) =>
    hash ? (history.find((v) => v.version_hash === hash) ?? (await reader.version(hash))) : null;
  const current = (await inHistory(object.current_version_ref))!;
  const previous = await inHistory(current.parent_version_hash);
  const authority = current.authority as {
    proposer?: { id: string; role: string };
    approver?: { id: string; role: string } | null;
    gate?: string;
    gate_event?: ContentHash | null;
    proposal_id?: string;
  };
  const authorizing: ProposalRecord | null = authority.proposal_id
    ? ((await reader.proposal(authority.proposal_id)) ?? null)
    : null;
  const seq = Number(current.receipt_ref.split('#')[1]);
  const sources = [];
  const messages = await reader.messagesById(current.sources.map((s) => s.message_id));
  for (const s of current.sources) {
    const message = messages.get(s.message_id);
    sources.push({ ...s, speaker: message?.role ?? 'unknown', actor: message?.actor ?? 'unknown' });
  }
  // What rests on it, the first PROVENANCE_DEPENDENTS of each kind in id order: a hub note walks
  // like any other, and says when it cut (the dependents graph reads on).
  const notes = await reader.dependentIds(objectId, 'note', PROVENANCE_DEPENDENTS + 1);
  const built = await reader.dependentIds(objectId, 'artifact', PROVENANCE_DEPENDENTS + 1);
  const cut = notes.length > PROVENANCE_DEPENDENTS || built.length > PROVENANCE_DEPENDENTS;
  const shownNotes = notes.slice(0, PROVENANCE_DEPENDENTS);
  const shownBuilt = built.slice(0, PROVENANCE_DEPENDENTS);
  const manifests = await reader.artifactsById(shownBuilt);
  // The version of this object each artifact was built from, by hash: however old it is.
  const pinOf = (id: string) =>
    manifests.get(id)?.canonical_note_versions.find((n) => n.object_id === objectId)?.version_hash;
  const fromCurrent = shownBuilt.flatMap((id) =>
    pinOf(id) === current.version_hash ? (manifests.get(id) ?? []) : [],
  );
  const cited = await reader.lookupFor(fromCurrent);
  const stale: ArtifactStatus[] = fromCurrent.map((m) => artifactState(m, cited));
  const pinned = await reader.versionsByHash(shownBuilt.flatMap((id) => pinOf(id) ?? []));
  const oldBuilds = [];
  for (const id of shownBuilt) {
    const version = pinned.get(pinOf(id) ?? '');
    if (version && version.note_id === objectId && version.version_hash !== current.version_hash)
      oldBuilds.push({ artifact_id: id, version_id: version.version_id });
  }
  const related = await reader.objectsById(object.dependency_refs);
  const dependsOn = object.dependency_refs.map((id) => {
    const dep = related.get(id);
    return {
      object_id: id,
      status: dep?.status ?? ('unknown' as const),
      effective: dep ? effectiveState(dep, now) : null,
    };
  });
  const supersededObjects = await reader.supersededBy(objectId);
  return {
    object,
    effective: effectiveState(object, now),
    depends_on: dependsOn,
    dependency_state: await reader.dependencyState('note', objectId),
    made_against: current.content.dependency_versions ?? [],
    why: { statement: current.content.text, confidence: current.content.confidence_state, sources },
    current_since: {
      version_id: current.version_id,
      timestamp: current.timestamp,
      receipt_ref: current.receipt_ref,
      receipt: Number.isSafeInteger(seq) ? await canon.journal.receipt(project, seq) : null,
    },
    authorized_by: {
      proposer: authority.proposer ?? null,
      approver: authority.approver ?? null,
      gate: authority.gate ?? null,
      stakes: authorizing?.comparison.stakes ?? null,
      gate_event: authority.gate_event ?? null,
      gate_protocol: authorizing?.gate.protocol_hash ?? null,
    },
    replaced: {
      previous_version: previous,
      superseded_objects: supersededObjects,
    },
    built_from_old: oldBuilds,
    stale_if_changed: { artifacts: stale, objects: shownNotes, cut },
    restorable: history
      .filter((v) => v.version_hash !== current.version_hash)
      .map((v) => ({
        version_id: v.version_id,
        version_hash: v.version_hash,
        timestamp: v.timestamp,
        text: v.content.text,
      })),
    claims: await reader.claims(objectId),
    resolution: current.resolution ?? null,
    epistemic: epistemic(object.object_type, object.confidence_state, object.status),
    history,
    versions: await reader.versionCount(objectId),
  };
}
