import type { CanonryRuntime } from '../app/index.js';
import {
  type ArchivedMessage,
  type ArtifactStatus,
  artifactStatus,
  artifactStatusesOf,
  type CanonObject,
  type CanonReader,
  type Claim,
  type ClaimInput,
  type Comparison,
  type DependencyState,
  type EffectiveState,
  effectiveState,
  type NoteVersion,
  OBJECT_STATUSES,
  type ObjectStatus,
  type PageQuery,
  type Principal,
  type ProposalRecord,
} from '../canon/index.js';
import { CanonryError, type ContentHash } from '../core/index.js';
import { type GateVerification, verifyGate } from './gate-verification.js';

/**
 * Read views of a project's canon, shared by the HTTP routes and the CLI so both faces answer alike.
 * Each reads as the authenticated principal: its project, and only what its planes allow (LCSM §14,
 * `src/canon/planes.ts`) — another principal's personal note is absent, as if it did not exist.
 */

/** An object with its current version and whether it is in effect now (§2). */
export interface ObjectView {
  readonly object: CanonObject;
  readonly current: NoteVersion;
  /** How many versions the reader may read (a promoted note's personal past is its holder's). */
  readonly versions: number;
  readonly effective: EffectiveState;
  /** The claims its disputes have held, open ones while it is disputed (§15). */
  readonly claims: readonly Claim[];
  /** What a cascade left on it: `needs_revision` with the cause, path and depth, or null. */
  readonly dependency_state: DependencyState | null;
}

export async function objectView(
  runtime: CanonryRuntime,
  principal: Principal,
  id: string,
): Promise<ObjectView> {
  const reader = runtime.canon.readerFor(principal);
  const object = await reader.object(id);
  if (!object) throw new CanonryError('UNKNOWN_OBJECT', `no object ${id}`);
  const current = (await reader.version(object.current_version_ref))!;
  return {
    object,
    current,
    versions: await reader.versionCount(id),
    effective: effectiveState(object, runtime.canon.now()),
    claims: await reader.claims(id),
    dependency_state: await reader.dependencyState('note', id),
  };
}

/** One version of an object, by number or hash, with where the object stands now. */
export async function versionView(
  runtime: CanonryRuntime,
  principal: Principal,
  id: string,
  version: ContentHash | number,
) {
  const reader = runtime.canon.readerFor(principal);
  const object = await reader.object(id);
  if (!object) throw new CanonryError('UNKNOWN_OBJECT', `no object ${id}`);
  const found = await reader.versionNamed(id, version);
  if (!found) throw new CanonryError('UNKNOWN_VERSION', `${id} has no version ${version}`);
  return { object_id: id, current_version_ref: object.current_version_ref, version: found };
}

/** A page of the versions of an object the principal may read, in version order. */
export async function versionsView(
  runtime: CanonryRuntime,
  principal: Principal,
  id: string,
  page: PageQuery,
) {
  const reader = runtime.canon.readerFor(principal);
  const object = await reader.object(id);
  if (!object) throw new CanonryError('UNKNOWN_OBJECT', `no object ${id}`);
  return {
    object_id: id,
    current_version_ref: object.current_version_ref,
    versions: await reader.versionPage(id, page),
  };
}

export async function messageView(
  runtime: CanonryRuntime,
  principal: Principal,
  id: string,
): Promise<ArchivedMessage> {
  const message = await runtime.canon.readerFor(principal).message(id);
  if (!message) throw new CanonryError('UNKNOWN_MESSAGE', `no message ${id}`);
  return message;
}

/** The two-note view of a proposal (§5): current vs candidate, the computed checks, the gate. */
export interface ProposalView {
  readonly proposal_id: string;
  readonly object_id: string;
  readonly intent: ProposalRecord['intent'];
  readonly status: ProposalRecord['status'];
  readonly proposer: ProposalRecord['proposer'];
  /** Who must approve it now (null unless pending and held back). */
  readonly required_role: ProposalRecord['required_role'];
  /** The role the gate asked for, kept after it closes. */
  readonly approval_role: ProposalRecord['approval_role'];
  /** Who approved it, when it committed on an approval. */
  readonly approved_by: ProposalRecord['decided_by'];
  /** After a re-comparison: the base_version an approval must name (`current` is what it overwrites). */
  readonly approval_requires_base: ProposalRecord['approval_requires_base'];
  readonly decided_by: ProposalRecord['decided_by'];
  readonly reason: string | null;
  readonly rationale: string | null;
  readonly message_id: string | null;
  readonly classifier: string | null;
  /** The version the comparison was made against. */
  readonly base_version: ContentHash | null;
  /** Where the object is now; differs from `base_version` when an approval would be stale. */
  readonly current_version_now: string | null;
  readonly stale: boolean;
  readonly current: Comparison['current'];
  readonly candidate: Comparison['candidate'];
  /** A dispute's competing claim (its candidate keeps the disputed statement), else null. */
  readonly claim: ClaimInput | null;
  /** The claim a resolution names as standing, else null. */
  readonly claim_id: string | null;
  readonly stakes: Comparison['stakes'];
  readonly checks: Comparison['checks'];
  readonly gate: ProposalRecord['gate'] & {
    /** The signed verdict checked against this server's trust root and revocation list. */
    readonly verification: GateVerification;
  };
}

/** A proposal's two-note view; its signed gate verdict judged at `at`, now when absent. */
export async function proposalView(
  runtime: CanonryRuntime,
  principal: Principal,
  id: string,
  at?: Date,
): Promise<ProposalView> {
  const p = await runtime.canon.readerFor(principal).proposal(id);
  if (!p) throw new CanonryError('UNKNOWN_PROPOSAL', `no proposal ${id}`);
  // Where the object is now, even when its current version is personal (a promotion the reader may
  // judge): an opaque hash, like the proposal's own base_version.
  const object = await runtime.canon.reader(principal.project).object(p.object_id);
  const now = object?.current_version_ref ?? null;
  return {
    proposal_id: p.proposal_id,
    object_id: p.object_id,
    intent: p.intent,
    status: p.status,
    proposer: p.proposer,
    required_role: p.required_role,
    approval_role: p.approval_role,
    approved_by: p.status === 'committed' ? p.decided_by : null,
    approval_requires_base: p.approval_requires_base,
    decided_by: p.decided_by,
    reason: p.reason,
    rationale: p.rationale,
    message_id: p.message_id,
    classifier: p.classifier,
    base_version: p.base_version,
    current_version_now: now,
    stale: p.status === 'pending' && now !== p.base_version,
    current: p.comparison.current,
    candidate: p.comparison.candidate,
    claim: p.claim ?? null,
    claim_id: p.claim_id ?? null,
    stakes: p.comparison.stakes,
    checks: p.comparison.checks,
    gate: { ...p.gate, verification: await verifyGate(runtime, principal.project, p, at) },
  };
}

/** An object on the board, marked with where it stands against its effective window (§2). */
export type BoardObject = CanonObject & {
  /** `expired` or `not_yet_effective` objects are on the board but are not current canon. */
  readonly effective: EffectiveState;
  /** A disputed object's open claims (§15): none of them is current canon. */
  readonly claims?: readonly Claim[];
  /** `needs_revision` (with cause, path, depth) when something it rests on moved; else null. */
  readonly dependency_state: DependencyState | null;
};

/** How many rows of one board group the principal may read, and whether more than shown exist. */
export interface BoardCount {
  readonly total: number;
  /** More than the board shows: read on with the group's paged list (after its last row). */
  readonly more: boolean;
}

/** Each board group holds at most this many rows unless asked for fewer or more (1–1000). */
export const BOARD_LIMIT = 50;

/**
 * The board (§9): the first `limit` objects of each status (id order), pending proposals (journal
 * order) and artifacts with their §10 states (id order), each group with its total and whether more
 * exist. Its work is bounded by `limit`, not by the project: the paged lists (`listObjects
 * ?status=`, `listProposals?status=pending`, `listArtifacts`) read on from a group's last row.
 */
export interface Board {
  readonly project: string;
  readonly limit: number;
  readonly objects: Readonly<Record<ObjectStatus, readonly BoardObject[]>>;
  readonly pending: readonly ProposalRecord[];
  readonly artifacts: readonly ArtifactStatus[];
  readonly counts: {
    readonly objects: Readonly<Record<ObjectStatus, BoardCount>>;
    readonly pending: BoardCount;
    readonly artifacts: BoardCount;
  };
}

/** The first `limit` of `rows` read to `limit + 1`, and whether there was one more. */
function firstOf<T>(rows: readonly T[], limit: number, total: number): [T[], BoardCount] {
  return [rows.slice(0, limit), { total, more: rows.length > limit }];
}

/**
 * The board as the principal may read it (§14), each object marked in or out of effect at canon's
 * clock: each group is a page of its paged list read to `limit + 1` rows (index ranges by holder
 * and status), and each total is read from the counts canon's projection keeps (a few rows).
 */
export function boardView(
  runtime: CanonryRuntime,
  principal: Principal,
  limit = BOARD_LIMIT,
): Promise<Board> {
  return boardOf(runtime.canon.readerFor(principal), runtime.canon.now(), limit);
}

/** {@link boardView} as `reader` reads it (its project, its viewer's planes), at `now`. */
export async function boardOf(reader: CanonReader, now: Date, limit = BOARD_LIMIT): Promise<Board> {
  const counts = await reader.counts();
  const totals = counts.objects;
  const pages = new Map<ObjectStatus, CanonObject[]>();
  for (const status of OBJECT_STATUSES) {
    pages.set(
      status,
      (totals.get(status) ?? 0) === 0
        ? []
        : await reader.objectPage({ statuses: [status], limit: limit + 1 }),
    );
  }
  const shown = [...pages.values()].flatMap((page) => page.slice(0, limit));
  const states = await reader.noteDependencyStates(shown.map((o) => o.object_id));
  const objects = {} as Record<ObjectStatus, BoardObject[]>;
  const objectCounts = {} as Record<ObjectStatus, BoardCount>;
  for (const status of OBJECT_STATUSES) {
    const [page, count] = firstOf(pages.get(status) ?? [], limit, totals.get(status) ?? 0);
    objectCounts[status] = count;
    objects[status] = [];
    for (const o of page) {
      const claims =
        o.status === 'disputed'
          ? (await reader.claims(o.object_id)).filter((c) => c.state === 'open')
          : [];
      objects[status].push({
        ...o,
        effective: effectiveState(o, now),
        dependency_state: states.get(`note:${o.object_id}`) ?? null,
        ...(claims.length > 0 ? { claims } : {}),
      });
    }
  }
  const pendingTotal = counts.proposals.get('pending') ?? 0;
  const [pending, pendingCount] = firstOf(
    pendingTotal === 0 ? [] : await reader.proposalPage({ status: 'pending', limit: limit + 1 }),
    limit,
    pendingTotal,
  );
  // The row past the first `limit` says only that there are more: its §10 state is not worked out.
  const [manifests, artifactCount] = firstOf(
    counts.artifacts === 0 ? [] : await reader.artifactPage({ limit: limit + 1 }),
    limit,
    counts.artifacts,
  );
  return {
    project: reader.project,
    limit,
    objects,
    pending,
    artifacts: await artifactStatusesOf(reader, manifests),
    counts: { objects: objectCounts, pending: pendingCount, artifacts: artifactCount },
  };
}

/** One artifact the principal may read, with its §10 state. */
export async function artifactView(
  runtime: CanonryRuntime,
  principal: Principal,
  id: string,
): Promise<ArtifactStatus> {
  const status = await artifactStatus(runtime.canon.readerFor(principal), id);
  if (!status) throw new CanonryError('UNKNOWN_ARTIFACT', `no artifact ${id}`);
  return status;
}
