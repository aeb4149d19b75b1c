import { type ContentHash, ok, type Result } from '../core/index.js';
import type { CognitiveAsset, Provenance } from './asset-types.js';
import { conjoin, contradiction, summaryScope } from './boundary.js';
import { ANYONE, type Governance, type GovernancePolicy } from './governance-types.js';
import { type EvolutionIssue, refuse } from './issues.js';
import { EXPORT, INFERENCE, REPLICATION, TRAINING, valuePermitting } from './permitted-sets.js';
import { effectivePolicyHash, sourcePolicyHash } from './policy-hash.js';
import { readRetention, retentionText, strictestRetention } from './retention.js';

/** Where a governing policy that is not a source asset's comes from. */
export const CONTEXT_SOURCES = ['request', 'tenant', 'deployment'] as const;
export type ContextSource = (typeof CONTEXT_SOURCES)[number];

/** The request's, the tenant's or the deployment's permissions, as a policy. */
export interface ContextPolicy {
  readonly source: ContextSource;
  readonly policy: GovernancePolicy;
}

/** What resolution needs besides the sources; `now` (ms) refuses a retention already past. */
export interface ResolveOptions {
  readonly context?: readonly ContextPolicy[];
  readonly now?: number;
}

/**
 * One effective governance envelope and what binds it: the sources (ids, sorted, once each), the
 * hashes of every policy it was resolved from (sources' and context's; a set, sorted) and the
 * provenance every source contributed.
 */
export interface ResolvedGovernance {
  readonly governance: Governance;
  readonly policy_hash: ContentHash;
  readonly source_assets: readonly string[];
  readonly source_policy_hashes: readonly ContentHash[];
  readonly provenance: Provenance;
}

type Fail = { readonly ok: false; readonly issues: readonly EvolutionIssue[] };

/**
 * Resolves the governance of an event from its sources (GCS "Governance Resolution"): boundaries
 * conjoined as concrete constraints, principals and roles intersected, replication, inference,
 * training and export intersected as permitted sets, the earliest retention, tags and provenance
 * kept. The result never depends on the order of the sources or on one given twice. An empty,
 * contradictory or unrepresentable result is refused with its reason, never widened. Declassification
 * rules of the sources do not pass to the result.
 */
export function resolveGovernance(
  sources: readonly CognitiveAsset[],
  options: ResolveOptions = {},
): Result<ResolvedGovernance, EvolutionIssue> {
  if (sources.length === 0)
    return refuse('GOVERNANCE_EMPTY', 'an event needs at least one source asset', 'source_assets');
  const bySource = new Map<string, CognitiveAsset>();
  for (const asset of sources) {
    const seen = bySource.get(asset.asset_id);
    if (
      seen !== undefined &&
      sourcePolicyHash(seen.governance) !== sourcePolicyHash(asset.governance)
    ) {
      return refuse(
        'GOVERNANCE_CONTRADICTORY',
        `asset ${asset.asset_id} is given with two policies`,
        'source_assets',
      );
    }
    bySource.set(asset.asset_id, asset);
  }
  const assets = [...bySource.values()];
  const context = options.context ?? [];
  const policies: GovernancePolicy[] = [
    ...assets.map((a) => a.governance),
    ...context.map((c) => c.policy),
  ];
  const governance = intersect(policies, options.now);
  if (!governance.ok) return governance;
  const hashes = new Set<ContentHash>(policies.map(sourcePolicyHash));
  return ok({
    governance: governance.value,
    policy_hash: effectivePolicyHash(governance.value),
    source_assets: [...bySource.keys()].sort(),
    source_policy_hashes: [...hashes].sort(),
    provenance: provenanceOf(assets),
  });
}

/** The intersection of several policies, or why there is none. */
export function intersect(
  policies: readonly GovernancePolicy[],
  now?: number,
): Result<Governance, EvolutionIssue> {
  const constraints = conjoin(policies.map((p) => p.privacy_boundary.constraints));
  const clash = contradiction(constraints);
  if (clash !== null) {
    const [a, b] = clash;
    return refuse(
      'GOVERNANCE_CONTRADICTORY',
      `the sources bind the event to ${a.kind} ${a.id} and to ${b.kind} ${b.id}; no place of use is inside both`,
      'privacy_boundary',
    );
  }
  const principals = intersectWho(
    policies.map((p) => p.allowed_principals),
    'allowed_principals',
  );
  if (!principals.ok) return principals;
  const roles = intersectWho(
    policies.map((p) => p.allowed_roles),
    'allowed_roles',
  );
  if (!roles.ok) return roles;
  let replicationBits = -1;
  let inferenceBits = -1;
  let trainingBits = -1;
  let exportBits = -1;
  for (const p of policies) {
    replicationBits &= REPLICATION[p.replication_policy];
    inferenceBits &= INFERENCE[p.inference_policy];
    trainingBits &= TRAINING[p.training_policy];
    exportBits &= EXPORT[p.export_policy];
  }
  const replication = representable(REPLICATION, replicationBits, 'replication_policy');
  if (typeof replication !== 'string') return replication;
  const inference = representable(INFERENCE, inferenceBits, 'inference_policy');
  if (typeof inference !== 'string') return inference;
  const training = representable(TRAINING, trainingBits, 'training_policy');
  if (typeof training !== 'string') return training;
  const exporting = representable(EXPORT, exportBits, 'export_policy');
  if (typeof exporting !== 'string') return exporting;
  const retention = strictestRetention(policies.map((p) => readRetention(p.retention_policy)!));
  if ('conflict' in retention) {
    return refuse(
      'GOVERNANCE_UNREPRESENTABLE',
      retention.conflict === 'rules'
        ? 'the sources name different retention rules; which is strictest is not known here'
        : 'the sources combine a named retention rule with an expiry; which comes first is not known here',
      'retention_policy',
    );
  }
  if (retention.kind === 'expires-at' && now !== undefined && retention.at <= now) {
    return refuse(
      'GOVERNANCE_EMPTY',
      `a source expired at ${retention.at}; nothing may be kept`,
      'retention_policy',
    );
  }
  const tags = new Set<string>();
  for (const p of policies) for (const tag of p.policy_tags) tags.add(tag);
  return ok({
    privacy_scope: summaryScope(policies.map((p) => p.privacy_scope)),
    privacy_boundary: { constraints },
    allowed_principals: principals.value,
    allowed_roles: roles.value,
    replication_policy: replication,
    inference_policy: inference,
    training_policy: training,
    export_policy: exporting,
    retention_policy: retentionText(retention),
    policy_tags: [...tags].sort(),
  });
}

/** Intersection of principal (or role) sets, `*` being every one; empty is refused. */
function intersectWho(
  sets: readonly (readonly string[])[],
  path: string,
): Result<string[], EvolutionIssue> {
  let result: Set<string> | undefined;
  for (const set of sets) {
    if (set.length === 1 && set[0] === ANYONE) continue;
    result = result === undefined ? new Set(set) : new Set(set.filter((x) => result!.has(x)));
  }
  if (result === undefined) return ok([ANYONE]);
  if (result.size === 0) {
    return refuse('GOVERNANCE_EMPTY', `no one is in every source's ${path}`, path);
  }
  return ok([...result].sort());
}

/** The value permitting exactly `common` (an intersection), or the refusal naming the field. */
function representable<P extends string>(
  table: Readonly<Record<P, number>>,
  common: number,
  path: string,
): P | Fail {
  const value = valuePermitting(table, common);
  return value !== undefined
    ? value
    : refuse(
        'GOVERNANCE_UNREPRESENTABLE',
        `what every source's ${path} permits together is no single ${path} value`,
        path,
      );
}

function provenanceOf(assets: readonly CognitiveAsset[]): Provenance {
  const derived = new Set<string>();
  const claims = new Set<string>();
  const results = new Set<string>();
  for (const a of assets) {
    derived.add(a.asset_id);
    for (const x of a.provenance.derived_from) derived.add(x);
    for (const x of a.provenance.execution_claims) claims.add(x);
    for (const x of a.provenance.verification_results) results.add(x);
  }
  return {
    derived_from: [...derived].sort(),
    execution_claims: [...claims].sort(),
    verification_results: [...results].sort(),
  };
}
