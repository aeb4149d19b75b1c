import type { ContentHash, JsonObject } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import { standingAdmissions } from './admission.js';
import { inCanary } from './promotion-canary.js';
import type { PromotionArtifactKind, PromotionCandidate } from './promotion-types.js';

/** A promotion that puts its artifact in force somewhere: in its canary, or promoted. */
export interface ActivePromotion {
  /** The promotion's own project (its journal holds its steps and observations). */
  readonly project: string;
  readonly promotion_id: string;
  readonly stage: 'canary' | 'promoted';
  readonly address: ContentHash;
  readonly candidate: PromotionCandidate;
  /** When it reached its stage (the step's entry time). */
  readonly since: string;
  /**
   * The projects its canary names, other than its own, that admit promotions of its project now
   * (`evolution.admission`): only those it reaches.
   */
  readonly admitted: readonly string[];
}

/** Where a session (or a project's proposals) lands: which promotion, which arm, what artifact. */
export interface Placement {
  readonly promotion: ActivePromotion;
  /** `canary`: the candidate; `baseline`: what is in force without it; `promoted`: a promoted one. */
  readonly arm: 'canary' | 'baseline' | 'promoted';
  /** The artifact to run; null for the runtime's own default (nothing promoted). */
  readonly artifact: JsonObject | null;
  readonly address: ContentHash | null;
}

/**
 * Every promotion of `kind` in its canary or promoted, in any project, from the `evolution`
 * projection (`evolution_promotions`, indexed by kind and stage), each with the named projects
 * that admit it as they stand now (`evolution_admissions`) — read at each use, so a withdrawal
 * takes effect for the next session or proposal.
 */
export async function activePromotions(
  db: Pick<Queryable, 'all'>,
  kind: PromotionArtifactKind,
): Promise<ActivePromotion[]> {
  const rows = await db.all<{
    project: string;
    promotion_id: string;
    stage: 'canary' | 'promoted';
    address: string;
    since: string;
    record: string;
  }>(
    `SELECT project, promotion_id, stage, address, since, record FROM evolution_promotions
     WHERE artifact_kind = $1 AND stage IN ('canary', 'promoted')`,
    [kind],
  );
  if (rows.length === 0) return [];
  const admissions = await standingAdmissions(db);
  return rows.map((r) => {
    const candidate = JSON.parse(r.record) as PromotionCandidate;
    return {
      project: r.project,
      promotion_id: r.promotion_id,
      stage: r.stage,
      address: r.address as ContentHash,
      candidate,
      since: r.since,
      admitted: candidate.canary.projects.filter(
        (q) => q !== r.project && admissions.get(q)?.has(r.project) === true,
      ),
    };
  });
}

/**
 * Whether a promotion's canary names a project it may reach: its own project, or another that
 * admits promotions from its project.
 */
export function names(p: ActivePromotion, project: string): boolean {
  return (
    p.candidate.canary.projects.includes(project) &&
    (project === p.project || p.admitted.includes(project))
  );
}

/**
 * Whether a promotion reaches a project: its own, and every project its canary names that admits
 * promotions from its project. A promotion never reaches further than that, promoted or not: an
 * editor of one project changes nothing for a project whose owner has not admitted it, and a
 * withdrawn admission ends the reach for what starts next.
 */
export function reaches(p: ActivePromotion, project: string): boolean {
  return p.project === project || names(p, project);
}

/** Every project a promotion reaches: its own and the named projects that admit it. */
export function reachedProjects(p: ActivePromotion): string[] {
  return [p.project, ...p.admitted];
}

/** Newest first (by when each reached its stage), then by project and id: one order everywhere. */
function newestFirst(list: ActivePromotion[]): ActivePromotion[] {
  return list.sort((a, b) =>
    a.since !== b.since
      ? a.since < b.since
        ? 1
        : -1
      : `${a.project}\n${a.promotion_id}` < `${b.project}\n${b.promotion_id}`
        ? -1
        : 1,
  );
}

/**
 * Where a new session lands among the active promotions of one kind: in the canary of the newest
 * canary that reaches its project and takes it (`inCanary`: a named project wholly, else its share
 * by hash of the session id); else, when some canary reaches the project, in the baseline arm of
 * the newest such canary, running what is in force without it; else under the newest promoted
 * artifact that reaches the project; else nowhere (null: the runtime's default).
 */
export function placeSession(
  active: readonly ActivePromotion[],
  where: { readonly project: string; readonly session_id: string },
): Placement | null {
  const reach = active.filter((p) => reaches(p, where.project));
  const canaries = newestFirst(reach.filter((p) => p.stage === 'canary'));
  const promoted = newestFirst(reach.filter((p) => p.stage === 'promoted'))[0] ?? null;
  for (const c of canaries) {
    if (inCanary(c.candidate.canary, c.promotion_id, where)) {
      return { promotion: c, arm: 'canary', artifact: c.candidate.artifact, address: c.address };
    }
  }
  const inForce = {
    artifact: promoted?.candidate.artifact ?? null,
    address: promoted?.address ?? null,
  };
  if (canaries[0] !== undefined) return { promotion: canaries[0], arm: 'baseline', ...inForce };
  return promoted === null ? null : { promotion: promoted, arm: 'promoted', ...inForce };
}

/**
 * What a project's proposals are judged by among active promotions of one kind, by project alone:
 * the newest canary that names the project (and may reach it: {@link names}); else the newest promoted one that reaches it; else
 * null (the runtime's default). A canary's own project, unnamed, stays on the baseline.
 */
export function placeProject(
  active: readonly ActivePromotion[],
  project: string,
): Placement | null {
  const canary = newestFirst(active.filter((p) => p.stage === 'canary' && names(p, project)))[0];
  if (canary !== undefined) {
    return {
      promotion: canary,
      arm: 'canary',
      artifact: canary.candidate.artifact,
      address: canary.address,
    };
  }
  const promoted = newestFirst(
    active.filter((p) => p.stage === 'promoted' && reaches(p, project)),
  )[0];
  return promoted === undefined
    ? null
    : {
        promotion: promoted,
        arm: 'promoted',
        artifact: promoted.candidate.artifact,
        address: promoted.address,
      };
}

/**
 * What the newest active promotion reaching a project replaces there (its baseline's address), or
 * null: what a project runs when it is in no canary and nothing is promoted, but a promotion of the
 * artifact is under way.
 */
export function replacedBaseline(
  active: readonly ActivePromotion[],
  project: string,
): ContentHash | null {
  const replacing = newestFirst(
    active.filter((p) => reaches(p, project) && p.candidate.baseline !== null),
  )[0];
  return replacing?.candidate.baseline ?? null;
}
