import { ok, type Result } from '../core/index.js';
import { ANYONE, type BoundaryKind, type Governance } from './governance-types.js';
import { type EvolutionIssue, refuse } from './issues.js';
import {
  bitOf,
  EXPORT,
  EXPORT_OPERATIONS,
  type ExportOperation,
  INFERENCE,
  INFERENCE_LOCATIONS,
  type InferenceLocation,
  REPLICATION,
  REPLICATION_DESTINATIONS,
  type ReplicationDestination,
  TRAINING,
  type TrainingForm,
  type TrainingLocation,
  trainingBit,
} from './permitted-sets.js';
import { readRetention } from './retention.js';

/**
 * A dispatch or adaptation path as governance sees it: which boundary kinds it can enforce, who
 * will use the event there, and what it will do with it. A receiving target declares one; the
 * coordinator admits an event to the path only if the path can enforce and is permitted all of it.
 */
export interface DispatchPath {
  readonly name: string;
  /** The boundary kinds the path checks at its place of use. */
  readonly enforces: readonly BoundaryKind[];
  /** The principal (and its roles) that will use the event on this path. */
  readonly user?: { readonly principal: string; readonly roles: readonly string[] };
  readonly replicates_to?: readonly ReplicationDestination[];
  readonly infers_at?: readonly InferenceLocation[];
  readonly trains?: readonly { readonly location: TrainingLocation; readonly form: TrainingForm }[];
  readonly exports?: readonly ExportOperation[];
  /** When the path will hold the event until (ms); checked against the retention's expiry. */
  readonly keeps_until?: number;
}

/**
 * Admits an event's effective governance to one path, or refuses it for that path:
 * `GOVERNANCE_UNENFORCEABLE` when the path cannot check one of its constraints (or a named
 * retention rule it does not know), `GOVERNANCE_FORBIDS` when the governance does not permit what
 * the path would do.
 */
export function admitForPath(
  governance: Governance,
  path: DispatchPath,
): Result<Governance, EvolutionIssue> {
  const enforced = new Set(path.enforces);
  for (const c of governance.privacy_boundary.constraints) {
    if (!enforced.has(c.kind)) {
      return refuse(
        'GOVERNANCE_UNENFORCEABLE',
        `path ${path.name} cannot enforce the ${c.kind} constraint ${c.id}`,
        'privacy_boundary',
      );
    }
  }
  if (path.user !== undefined) {
    const { principal, roles } = path.user;
    if (!admits(governance.allowed_principals, [principal])) {
      return refuse(
        'GOVERNANCE_FORBIDS',
        `${principal} is not an allowed principal`,
        'allowed_principals',
      );
    }
    if (!admits(governance.allowed_roles, roles)) {
      return refuse('GOVERNANCE_FORBIDS', `${principal} holds no allowed role`, 'allowed_roles');
    }
  }
  const wants: [string, number, number][] = [
    [
      'replication_policy',
      mask(REPLICATION_DESTINATIONS, path.replicates_to),
      REPLICATION[governance.replication_policy],
    ],
    [
      'inference_policy',
      mask(INFERENCE_LOCATIONS, path.infers_at),
      INFERENCE[governance.inference_policy],
    ],
    [
      'training_policy',
      (path.trains ?? []).reduce((bits, t) => bits | trainingBit(t.location, t.form), 0),
      TRAINING[governance.training_policy],
    ],
    ['export_policy', mask(EXPORT_OPERATIONS, path.exports), EXPORT[governance.export_policy]],
  ];
  for (const [field, wanted, permitted] of wants) {
    if ((wanted & ~permitted) !== 0) {
      return refuse(
        'GOVERNANCE_FORBIDS',
        `path ${path.name} would do what ${field} does not permit`,
        field,
      );
    }
  }
  if (path.keeps_until !== undefined) {
    const retention = readRetention(governance.retention_policy);
    if (retention?.kind === 'ref') {
      return refuse(
        'GOVERNANCE_UNENFORCEABLE',
        `path ${path.name} cannot tell when retention rule ${retention.ref} expires`,
        'retention_policy',
      );
    }
    if (retention?.kind === 'expires-at' && path.keeps_until > retention.at) {
      return refuse(
        'GOVERNANCE_FORBIDS',
        `path ${path.name} would keep the event past its expiry`,
        'retention_policy',
      );
    }
  }
  return ok(governance);
}

function admits(allowed: readonly string[], wanted: readonly string[]): boolean {
  if (allowed.length === 1 && allowed[0] === ANYONE) return true;
  return wanted.some((w) => allowed.includes(w));
}

function mask<T extends string>(list: readonly T[], members: readonly T[] | undefined): number {
  return (members ?? []).reduce((bits, m) => bits | bitOf(list, m), 0);
}
