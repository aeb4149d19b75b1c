import { PROJECT_NAME } from '../core/index.js';
import { defineEntryKind } from '../journal/index.js';
import type { Queryable } from '../store/index.js';

/**
 * An `evolution.admission` entry, in the journal of the project that admits: from now on (or, with
 * `admitted: false`, no longer) promotions of `from_project` whose canary names this project reach
 * it. Only this project's owner writes one: tokens are per project, so the project a promotion
 * reaches consents in its own journal, never through the promoting project's.
 */
export interface AdmissionBody {
  readonly from_project: string;
  readonly admitted: boolean;
}

/** One project's standing admission of another's promotions, as the projection keeps it. */
export interface Admission {
  readonly from_project: string;
  readonly admitted: boolean;
  /** The seq of the entry that set it, in the admitting project's journal. */
  readonly seq: number;
}

export const ADMISSION_ENTRY = defineEntryKind<AdmissionBody>({
  kind: 'evolution.admission',
  version: 1,
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['from_project', 'admitted'],
    properties: {
      from_project: { type: 'string', pattern: PROJECT_NAME.source },
      admitted: { type: 'boolean' },
    },
  },
  // Both members are names and a yes/no: nothing in it is content or a secret.
  summary: ({ from_project, admitted }) => ({ from_project, admitted }),
});

/** The admissions `project` has given or withdrawn, by the project they name. */
export async function admissionsOf(
  db: Pick<Queryable, 'all'>,
  project: string,
): Promise<Admission[]> {
  const rows = await db.all<{ from_project: string; admitted: number | string; seq: number }>(
    `SELECT from_project, admitted, seq FROM evolution_admissions
     WHERE project = $1 ORDER BY from_project`,
    [project],
  );
  return rows.map(admission);
}

/** One page of a project's admissions by the project they name (byte order): after `after`. */
export interface AdmissionPageQuery {
  readonly after?: string;
  readonly limit: number;
}

/**
 * One page of {@link admissionsOf}: at most `limit`, after `after`, a range of the table's primary
 * key (project, from_project); a page shorter than `limit` is the last.
 */
export async function admissionPage(
  db: Pick<Queryable, 'all'>,
  project: string,
  q: AdmissionPageQuery,
): Promise<Admission[]> {
  const rows = await db.all<{ from_project: string; admitted: number | string; seq: number }>(
    q.after === undefined
      ? `SELECT from_project, admitted, seq FROM evolution_admissions
         WHERE project = $1 ORDER BY from_project LIMIT $2`
      : `SELECT from_project, admitted, seq FROM evolution_admissions
         WHERE project = $1 AND from_project > $3 ORDER BY from_project LIMIT $2`,
    q.after === undefined ? [project, q.limit] : [project, q.limit, q.after],
  );
  return rows.map(admission);
}

const admission = (r: { from_project: string; admitted: number | string; seq: number }) => ({
  from_project: r.from_project,
  admitted: Number(r.admitted) === 1,
  seq: Number(r.seq),
});

/** Every standing admission: admitting project → the projects whose promotions may reach it. */
export async function standingAdmissions(
  db: Pick<Queryable, 'all'>,
): Promise<Map<string, Set<string>>> {
  const rows = await db.all<{ project: string; from_project: string }>(
    'SELECT project, from_project FROM evolution_admissions WHERE admitted = 1',
  );
  const by = new Map<string, Set<string>>();
  for (const r of rows) by.set(r.project, (by.get(r.project) ?? new Set()).add(r.from_project));
  return by;
}

/** The projects that admit promotions from `from` now. */
export async function admittingProjects(
  db: Pick<Queryable, 'all'>,
  from: string,
): Promise<Set<string>> {
  const rows = await db.all<{ project: string }>(
    'SELECT project FROM evolution_admissions WHERE from_project = $1 AND admitted = 1',
    [from],
  );
  return new Set(rows.map((r) => r.project));
}
