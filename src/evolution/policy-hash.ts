import { type ContentHash, contentHash, hashBytes } from '../core/index.js';
import { governanceText } from './event-text.js';
import type { Governance, GovernancePolicy } from './governance-types.js';

/** Exactly the governance members of an event or a policy (a new object, nothing else). */
export function governanceOf(source: Governance): Governance {
  return {
    privacy_scope: source.privacy_scope,
    privacy_boundary: { constraints: source.privacy_boundary.constraints },
    allowed_principals: source.allowed_principals,
    allowed_roles: source.allowed_roles,
    replication_policy: source.replication_policy,
    inference_policy: source.inference_policy,
    training_policy: source.training_policy,
    export_policy: source.export_policy,
    retention_policy: source.retention_policy,
    policy_tags: source.policy_tags,
  };
}

/**
 * The effective `policy_hash`: SHA-256 over the RFC 8785 bytes of the governance members alone.
 * Sets are in their written (sorted) order, so one governance has one hash.
 */
export function effectivePolicyHash(governance: Governance): ContentHash {
  return hashBytes(governanceText(governance));
}

/** A source's policy hash: over its whole policy, declassification rules included. */
export function sourcePolicyHash(policy: GovernancePolicy): ContentHash {
  if (policy.declassification === undefined) return hashBytes(governanceText(policy));
  return contentHash({ ...governanceOf(policy), declassification: policy.declassification });
}
