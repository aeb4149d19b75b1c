import { CanonryError } from '../core/index.js';
import { type Journal, parseProject } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { ADMISSION_ENTRY, type Admission, admissionsOf, admittingProjects } from './admission.js';
import type { PromotionActor } from './promotion-actor.js';
import type { PromotionCandidate } from './promotion-types.js';

/**
 * Thrown under the head's lock when an admission already stands as asked: nothing to journal. A
 * CanonryError, so a group commit refuses this append alone and never rolls the others back.
 */
class AlreadyStands extends CanonryError {
  constructor(readonly admission: Admission) {
    super('CONFLICT', 'the admission already stands as asked');
  }
}

/**
 * Admits promotions of `from` into `project` (or, `admitted: false`, withdraws that): an
 * `evolution.admission` entry in `project`'s journal, its owner's alone (FORBIDDEN otherwise).
 * Nothing is appended when it already stands as asked.
 */
export async function admitPromotions(
  journal: Journal,
  project: string,
  who: PromotionActor,
  from: string,
  admitted: boolean,
): Promise<Admission> {
  if (who.role !== 'owner') {
    throw new CanonryError(
      'FORBIDDEN',
      `admitting promotions of another project into ${project} is its owner's: this needs the owner role`,
      { required_role: 'owner' },
    );
  }
  if (from === project) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'a project always reaches itself: it admits other projects only',
      { field: 'from' },
    );
  }
  parseProject(from);
  const standing = async (db: Pick<Queryable, 'all'>): Promise<Admission | null> => {
    const now = (await admissionsOf(db, project)).find((a) => a.from_project === from);
    if (now?.admitted === admitted) return now;
    return now === undefined && !admitted ? { from_project: from, admitted, seq: 0 } : null;
  };
  const already = await standing(journal.store);
  if (already !== null) return already;
  try {
    const { entry } = await journal.append(
      project,
      ADMISSION_ENTRY.input(
        { from_project: from, admitted },
        {
          actor: who.actor,
          ...(who.authority === undefined ? {} : { authority: who.authority }),
        },
      ),
      {
        // Decided again under the head's lock: the same call, sent at once, may have set it.
        precondition: async (tx) => {
          const now = await standing(tx);
          if (now !== null) throw new AlreadyStands(now);
        },
      },
    );
    return { from_project: from, admitted, seq: entry.seq };
  } catch (err) {
    if (err instanceof AlreadyStands) return err.admission;
    throw err;
  }
}

/** FORBIDDEN unless every project the candidate's canary names, but its own, admits `project`. */
export async function requireAdmitted(
  store: Pick<Queryable, 'all'>,
  project: string,
  candidate: PromotionCandidate,
): Promise<void> {
  const others = candidate.canary.projects.filter((q) => q !== project);
  if (others.length === 0) return;
  const admitting = await admittingProjects(store, project);
  const missing = others.filter((q) => !admitting.has(q));
  if (missing.length > 0) {
    throw new CanonryError(
      'FORBIDDEN',
      `the canary names ${missing.slice(0, 8).join(', ')}, which ${missing.length === 1 ? 'does' : 'do'} not admit promotions from ${project}: a project's owner admits them (evolution admissions)`,
      { projects: missing.slice(0, 64) },
    );
  }
}
