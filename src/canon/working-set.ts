import { CanonryError, compareCodeUnits, countTokens } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import { type ArtifactStatus, artifactState } from './artifacts.js';
import type { Canon, Viewer } from './canon.js';
import { renderCapsule } from './capsule.js';
import { withCascade } from './cascade.js';
import { type DisputedNote, disputedNote } from './disputes.js';
import { type EffectiveState, effectiveState } from './effective.js';
import type { CanonReader } from './read.js';
import type { ProposalRecord } from './records.js';
import {
  type CanonObject,
  isLive,
  type NoteVersion,
  OBJECT_STATUSES,
  type ObjectType,
  type SourceRef,
} from './types.js';

/** What a working set is compiled for. */
export interface WorkingSetRequest {
  /** A task in words; objects are chosen by relevance to it. */
  readonly objective?: string;
  /** One object to work on; it, its dependencies and its dependents are included. */
  readonly object_id?: string;
  /** The most objects chosen by relevance (default 12); applicable policy is always included. */
  readonly limit?: number;
}

/** One current note as a working set carries it. */
export interface WorkingNote {
  readonly object_id: string;
  readonly object_type: ObjectType;
  readonly version_id: number;
  readonly status: string;
  readonly confidence: string;
  readonly title: string;
  readonly text: string;
  readonly authority: string;
  readonly sources: readonly SourceRef[];
}

/**
 * A scoped working set (§8, §9): current canonical notes, the relevant prior mutation and the rule
 * that authorized it, exact source spans, active dependencies, open contradictions and uncertainty,
 * applicable policy and dependent artifacts — and nothing superseded. Derived, disposable.
 */
export interface WorkingSet {
  readonly project: string;
  readonly objective: string | null;
  readonly notes: readonly WorkingNote[];
  readonly policies: readonly WorkingNote[];
  readonly dependencies: readonly WorkingNote[];
  readonly prior_mutations: readonly {
    object_id: string;
    from_version: number | null;
    to_version: number;
    intent: string;
    /** For a restore: the version whose content came back. */
    restored_version: number | null;
    /** For a resolved dispute: why the standing claim stands, and how many were set aside. */
    resolution: { rationale: string; set_aside: number } | null;
    gate: string;
    stakes: string;
    authorized_by: string;
  }[];
  readonly contradictions: readonly {
    proposal_id: string;
    object_id: string;
    status: string;
    text: string;
    needs: string | null;
  }[];
  readonly uncertainty: readonly WorkingNote[];
  /**
   * Disputed objects of the set, each once, with its competing claims and who holds which (§15):
   * never among the notes, policies, dependencies or uncertainty as if one claim were current canon.
   */
  readonly disputes: readonly DisputedNote[];
  readonly artifacts: readonly {
    artifact_id: string;
    title: string;
    state: string;
    acceptance: string;
    reasons: readonly string[];
  }[];
  /** How many superseded or retired objects were left out. */
  readonly excluded: number;
  /** How many otherwise current objects were left out because their effective window has ended (§2). */
  readonly expired: number;
  /** How many otherwise current objects were left out because their effective window has not begun. */
  readonly not_yet_effective: number;
  /**
   * Notes of the set that depend on an object out of effect: the dependency is not current canon, so
   * its content is left out, and the dependent says so instead of standing on it silently.
   */
  readonly lapsed_dependencies: readonly {
    object_id: string;
    depends_on: string;
    effective: Exclude<EffectiveState, 'in_effect'>;
    /** The bound that puts it out of effect: `effective_until` when expired, else `effective_from`. */
    since: string;
  }[];
  /**
   * Notes of the set that rest on something that moved (a cascade flagged them): taken out of the
   * sections above and listed here with the cause, the depth and the path, never as current canon.
   */
  readonly needs_revision: readonly (WorkingNote & {
    readonly cause: string;
    readonly depth: number;
    readonly path: readonly string[];
  })[];
  readonly capsule: string;
  readonly tokens: number;
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'to',
  'in',
  'on',
  'for',
  'is',
  'are',
  'be',
  'it',
  'this',
  'that',
  'with',
  'we',
  'our',
  'what',
  'which',
  'how',
  'now',
  'current',
]);
const POLICY_TYPES: readonly ObjectType[] = ['constraint', 'policy', 'instruction', 'permission'];
const UNCERTAIN_TYPES: readonly ObjectType[] = ['question', 'uncertainty', 'dispute'];

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
}

function note(o: CanonObject): WorkingNote {
  const a = o.authority_basis as {
    proposer?: { id: string; role: string };
    approver?: { id: string; role: string } | null;
    gate?: string;
  };
  const proposer = `${a.proposer?.id}/${a.proposer?.role}`;
  const approver = a.approver ? `${a.approver.id}/${a.approver.role}` : null;
  const by =
    approver === null
      ? proposer
      : approver === proposer
        ? `${proposer}, self-approved`
        : `${proposer}, approved ${approver}`;
  return {
    object_id: o.object_id,
    object_type: o.object_type,
    version_id: o.version_id,
    status: o.status,
    confidence: o.confidence_state,
    title: o.title,
    text: o.text,
    authority: `${by}, gate ${a.gate ?? 'n/a'}`,
    sources: o.source_refs,
  };
}

/** The statuses of objects still standing in canon: all but superseded and retired. */
const STANDING = OBJECT_STATUSES.filter((s) => isLive({ status: s }));

/**
 * Compiles a working set for an objective or an object from current canon as `viewer` may read it
 * (§14: nothing of another principal's personal plane, not even in the counts), at canon's clock:
 * objects outside their effective window (§2) are not current canon and are left out, counted.
 *
 * It reads current state, never the project's history: the standing objects (the superseded and
 * retired only counted, over an index), the pending proposals, and for what the set shows, the
 * versions, proposals, cascade states and artifacts by id (`db`: the store it reads on).
 */
export async function workingSet(
  canon: Canon,
  viewer: Viewer,
  request: WorkingSetRequest,
  db?: Pick<Queryable, 'all'>,
): Promise<WorkingSet> {
  const reader = canon.readerAs(viewer, db);
  const project = reader.project;
  const now = canon.now();
  const standing = await reader.objects(STANDING);
  // The kept counts: a few rows, whatever the project holds.
  const counts = (await reader.counts()).objects;
  const state = new Map(standing.map((o) => [o.object_id, effectiveState(o, now)]));
  const standingById = new Map(standing.map((o) => [o.object_id, o]));
  const live = standing.filter((o) => state.get(o.object_id) === 'in_effect');
  const byId = new Map(live.map((o) => [o.object_id, o]));
  let focus: CanonObject[];
  if (request.object_id !== undefined) {
    const object = byId.get(request.object_id);
    if (!object) {
      const lapsed = state.get(request.object_id);
      throw new CanonryError(
        'UNKNOWN_OBJECT',
        `no current object ${request.object_id}${lapsed ? ` (${lapsed.replaceAll('_', ' ')})` : ''}`,
        lapsed ? { effective: lapsed } : undefined,
      );
    }
    const related = new Set([
      ...object.dependency_refs,
      ...live.filter((o) => o.dependency_refs.includes(object.object_id)).map((o) => o.object_id),
    ]);
    focus = [object, ...live.filter((o) => related.has(o.object_id))];
  } else {
    const wanted = new Set(words(request.objective ?? ''));
    const scored = live
      .map((o) => ({
        o,
        score: words(`${o.title} ${o.text} ${o.object_id}`).filter((w) => wanted.has(w)).length,
      }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          b.o.version_id - a.o.version_id ||
          compareCodeUnits(a.o.object_id, b.o.object_id),
      );
    // An objective that names nothing in canon ("resume where we left off") gets all of it, within
    // the limit; otherwise only what it is about.
    const matched = scored.filter((s) => s.score > 0);
    focus = (matched.length > 0 ? matched : scored).slice(0, request.limit ?? 12).map((s) => s.o);
  }
  const focusIds = new Set(focus.map((o) => o.object_id));
  const policies = live.filter(
    (o) => POLICY_TYPES.includes(o.object_type) && !focusIds.has(o.object_id),
  );
  const deps = [...new Set(focus.flatMap((o) => o.dependency_refs))]
    .filter((id) => !focusIds.has(id))
    .flatMap((id) => byId.get(id) ?? []);
  const touched = new Set([...focusIds, ...deps.map((d) => d.object_id)]);
  const inSet = [
    ...focus,
    ...policies,
    ...deps,
    ...live.filter((o) => UNCERTAIN_TYPES.includes(o.object_type)),
  ];
  const unique = [...new Map(inSet.map((o) => [o.object_id, o])).values()];
  const plain = (o: CanonObject) => o.status !== 'disputed';
  const heads = await reader.versionsByHash(
    [...focus, ...unique.filter((o) => !plain(o))].map((o) => o.current_version_ref),
  );
  const prior = await lastCommits(reader, focus, heads);
  // A pending proposal compared against a version that is no longer current is not an open
  // contradiction of current canon: it waits for a fresh comparison and is left out.
  const compareable = (p: ProposalRecord) =>
    p.base_version === (byId.get(p.object_id)?.current_version_ref ?? null) &&
    p.supersedes.every((id) => byId.has(id));
  const contradictions = (await reader.proposals('pending'))
    .filter((p) => compareable(p) && (touched.has(p.object_id) || request.object_id === undefined))
    .map((p) => ({
      proposal_id: p.proposal_id,
      object_id: p.object_id,
      status: p.status,
      text: p.candidate.text,
      needs: p.required_role,
    }));
  // The artifacts that cite a note of the set or one no longer current canon (out of effect,
  // superseded, retired). An artifact this viewer may read cites only versions it may read, and a
  // note shared once is never personal again (plane-rules.ts): no such artifact cites an object the
  // viewer cannot read, so none is missed by asking only for these.
  const outOfEffect = standing.filter((o) => !byId.has(o.object_id)).map((o) => o.object_id);
  const manifests = (await reader.artifactsCiting([...touched, ...outOfEffect], true)).filter((m) =>
    m.canonical_note_versions.some((n) => touched.has(n.object_id) || !byId.has(n.object_id)),
  );
  const cited = await reader.lookupFor(manifests);
  const cascaded = new Map([
    ...(await reader.noteDependencyStates(unique.map((o) => o.object_id))),
    ...(await reader.artifactDependencyStates(manifests.map((m) => m.artifact_id))),
  ]);
  const artifacts: ArtifactStatus[] = manifests.map((m) =>
    withCascade(artifactState(m, cited), cascaded),
  );
  const lapsed: WorkingSet['lapsed_dependencies'][number][] = [];
  for (const o of unique) {
    for (const id of o.dependency_refs) {
      const dep = standingById.get(id);
      const effective = state.get(id);
      if (!dep || effective === undefined || effective === 'in_effect') continue;
      const since = effective === 'expired' ? dep.effective_until : dep.effective_from;
      lapsed.push({ object_id: o.object_id, depends_on: id, effective, since: since ?? '' });
    }
  }
  const flagged = (o: CanonObject) => cascaded.get(`note:${o.object_id}`);
  // A note standing on something that moved is listed under needs_revision, never as plain canon;
  // a disputed one under disputes, with its claims.
  const standingOn = (rows: readonly CanonObject[]) =>
    rows.filter((o) => plain(o) && !flagged(o)).map(note);
  const needsRevision = unique.filter(plain).flatMap((o) => {
    const s = flagged(o);
    return s ? [{ ...note(o), cause: s.cause, depth: s.depth, path: s.path }] : [];
  });
  const disputes = unique
    .filter((o) => !plain(o))
    .flatMap((o) => {
      const version = heads.get(o.current_version_ref);
      return version ? [disputedNote(version)] : [];
    });
  const set = {
    project,
    objective: request.objective ?? null,
    notes: standingOn(focus),
    policies: standingOn(policies),
    dependencies: standingOn(deps),
    prior_mutations: prior,
    contradictions,
    uncertainty: standingOn(
      live.filter((o) => UNCERTAIN_TYPES.includes(o.object_type) && !focusIds.has(o.object_id)),
    ),
    disputes,
    artifacts: artifacts.map((a) => ({
      artifact_id: a.manifest.artifact_id,
      title: a.manifest.title,
      state: a.state,
      acceptance: a.manifest.acceptance_state,
      reasons: a.reasons,
    })),
    excluded: (counts.get('superseded') ?? 0) + (counts.get('retired') ?? 0),
    expired: standing.filter((o) => state.get(o.object_id) === 'expired').length,
    not_yet_effective: standing.filter((o) => state.get(o.object_id) === 'not_yet_effective')
      .length,
    lapsed_dependencies: lapsed,
    needs_revision: needsRevision,
  };
  const capsule = renderCapsule(set);
  return { ...set, capsule, tokens: countTokens(capsule) };
}

/**
 * For each object, the mutation that made its current version (`heads` holds those versions), found
 * through that version's authority: those proposals, and the versions they name, read by id.
 */
async function lastCommits(
  reader: CanonReader,
  focus: readonly CanonObject[],
  heads: ReadonlyMap<string, NoteVersion>,
): Promise<WorkingSet['prior_mutations']> {
  const madeBy = (o: CanonObject) =>
    (heads.get(o.current_version_ref)?.authority as { proposal_id?: string } | null)?.proposal_id;
  const byId = await reader.proposalsById(focus.flatMap((o) => madeBy(o) ?? []));
  const named = await reader.versionsByHash(
    [...byId.values()].flatMap((p) => [p.base_version ?? [], p.restore_version ?? []].flat()),
  );
  const version = (hash: string) => heads.get(hash) ?? named.get(hash);
  return focus.flatMap((o) => {
    const current = heads.get(o.current_version_ref);
    const id = madeBy(o);
    const last = id ? byId.get(id) : undefined;
    if (!last) return [];
    const who = last.decided_by
      ? `${last.decided_by.id} (${last.decided_by.role})`
      : `${last.proposer.id} (${last.proposer.role})`;
    return [
      {
        object_id: o.object_id,
        from_version: last.base_version ? (version(last.base_version)?.version_id ?? null) : null,
        to_version: o.version_id,
        intent: last.intent,
        restored_version: last.restore_version
          ? (version(last.restore_version)?.version_id ?? null)
          : null,
        resolution: current?.resolution
          ? {
              rationale: current.resolution.rationale,
              set_aside: current.resolution.set_aside.length,
            }
          : null,
        gate: last.gate.label,
        stakes: last.comparison.stakes,
        authorized_by: who,
      },
    ];
  });
}
