import { compareCodeUnits } from '../core/index.js';
import type { BoundaryConstraint, BoundaryKind, PrivacyScope } from './governance-types.js';

/**
 * Privacy scopes and the concrete constraints they stand for. A scope is a summary: a policy that
 * names one must also carry the constraints it implies, and only the constraints are enforced.
 */
const REQUIRED_KIND: Partial<Record<PrivacyScope, BoundaryKind>> = {
  local_only: 'device_group',
  user_private: 'user',
  trusted_devices: 'device_group',
  enterprise_private: 'enterprise',
  tenant_private: 'tenant',
};

/**
 * Kinds of which one place of use belongs to exactly one (a user, an enterprise, a tenant, a
 * workspace, a project): two different ids of one of these kinds can never both hold. A node may
 * sit in several device groups and networks, so those conjoin without contradiction.
 */
export const EXCLUSIVE_KINDS: ReadonlySet<BoundaryKind> = new Set([
  'user',
  'enterprise',
  'tenant',
  'workspace',
  'project',
]);

/** Why `constraints` do not carry what `scope` says, or null when they do. */
export function scopeMismatch(
  scope: PrivacyScope,
  constraints: readonly BoundaryConstraint[],
): string | null {
  const kind = REQUIRED_KIND[scope];
  if (kind !== undefined) {
    return constraints.some((c) => c.kind === kind)
      ? null
      : `a ${scope} scope needs a ${kind} constraint in privacy_boundary`;
  }
  if (scope === 'public') {
    return constraints.length === 0 ? null : 'a public scope carries no boundary constraint';
  }
  return constraints.length > 0 ? null : `a ${scope} scope needs at least one boundary constraint`;
}

/** The order constraints are written in: by kind, then id. */
export function compareConstraints(a: BoundaryConstraint, b: BoundaryConstraint): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return compareCodeUnits(a.id, b.id);
}

/** The conjunction of several boundaries: every constraint of each, once, in order. */
export function conjoin(
  boundaries: readonly (readonly BoundaryConstraint[])[],
): BoundaryConstraint[] {
  const seen = new Map<string, BoundaryConstraint>();
  for (const constraints of boundaries) {
    for (const c of constraints) seen.set(`${c.kind}\u0000${c.id}`, c);
  }
  return [...seen.values()].sort(compareConstraints);
}

/** Two constraints of an exclusive kind with different ids, if the conjunction has them. */
export function contradiction(
  constraints: readonly BoundaryConstraint[],
): readonly [BoundaryConstraint, BoundaryConstraint] | null {
  for (let i = 1; i < constraints.length; i++) {
    const a = constraints[i - 1]!;
    const b = constraints[i]!;
    if (a.kind === b.kind && EXCLUSIVE_KINDS.has(a.kind)) return [a, b];
  }
  return null;
}

/**
 * The scope that summarises a conjunction: the one scope every non-public source shares, `public`
 * when all are public, else `compound`. Never authorization: the constraints are.
 */
export function summaryScope(scopes: readonly PrivacyScope[]): PrivacyScope {
  let only: PrivacyScope | undefined;
  for (const scope of scopes) {
    if (scope === 'public') continue;
    if (only !== undefined && only !== scope) return 'compound';
    only = scope;
  }
  return only ?? 'public';
}
