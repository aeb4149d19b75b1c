import { ANYONE, type Governance } from './governance-types.js';
import { EXPORT, INFERENCE, REPLICATION, TRAINING } from './permitted-sets.js';
import { readRetention, retainsNoLonger } from './retention.js';

/**
 * The first governance field in which `a` is wider than `b`, or null when `a` is within `b`: every
 * constraint of `b` is one of `a`'s, `a` admits no principal or role `b` does not, permits no
 * destination, location or operation `b` does not, keeps nothing longer and drops no tag.
 */
export function widerField(a: Governance, b: Governance): string | null {
  const ac = new Set(a.privacy_boundary.constraints.map((c) => `${c.kind}\u0000${c.id}`));
  if (!b.privacy_boundary.constraints.every((c) => ac.has(`${c.kind}\u0000${c.id}`))) {
    return 'privacy_boundary';
  }
  if (!whoWithin(a.allowed_principals, b.allowed_principals)) return 'allowed_principals';
  if (!whoWithin(a.allowed_roles, b.allowed_roles)) return 'allowed_roles';
  if (!bitsWithin(REPLICATION[a.replication_policy], REPLICATION[b.replication_policy])) {
    return 'replication_policy';
  }
  if (!bitsWithin(INFERENCE[a.inference_policy], INFERENCE[b.inference_policy])) {
    return 'inference_policy';
  }
  if (!bitsWithin(TRAINING[a.training_policy], TRAINING[b.training_policy]))
    return 'training_policy';
  if (!bitsWithin(EXPORT[a.export_policy], EXPORT[b.export_policy])) return 'export_policy';
  const ar = readRetention(a.retention_policy);
  const br = readRetention(b.retention_policy);
  if (ar === null || br === null || !retainsNoLonger(ar, br)) return 'retention_policy';
  const tags = new Set(a.policy_tags);
  if (!b.policy_tags.every((t) => tags.has(t))) return 'policy_tags';
  return null;
}

function whoWithin(a: readonly string[], b: readonly string[]): boolean {
  if (b.length === 1 && b[0] === ANYONE) return true;
  if (a.length === 1 && a[0] === ANYONE) return false;
  const allowed = new Set(b);
  return a.every((x) => allowed.has(x));
}

function bitsWithin(a: number, b: number): boolean {
  return (a & ~b) === 0;
}
