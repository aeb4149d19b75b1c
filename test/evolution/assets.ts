import { contentHash } from '../../src/core/index.js';
import type {
  CognitiveAsset,
  EventDraft,
  Governance,
  GovernancePolicy,
} from '../../src/evolution/index.js';

/** The widest governance the schema can write: public, anyone, everything permitted. */
export const OPEN: Governance = {
  privacy_scope: 'public',
  privacy_boundary: { constraints: [] },
  allowed_principals: ['*'],
  allowed_roles: ['*'],
  replication_policy: 'public_swarm',
  inference_policy: 'public_allowed',
  training_policy: 'allowed',
  export_policy: 'allowed',
  retention_policy: 'indefinite',
  policy_tags: [],
};

/** A policy: {@link OPEN} with the given members changed. */
export function policy(changes: Partial<GovernancePolicy> = {}): GovernancePolicy {
  return { ...OPEN, ...changes };
}

/** A user_private policy of `user`, usable by that user alone. */
export function userPrivate(user: string, changes: Partial<GovernancePolicy> = {}) {
  return policy({
    privacy_scope: 'user_private',
    privacy_boundary: { constraints: [{ kind: 'user', id: user }] },
    allowed_principals: [user],
    replication_policy: 'trusted_devices',
    inference_policy: 'private_nodes',
    training_policy: 'local_only',
    export_policy: 'approval_required',
    ...changes,
  });
}

/** An enterprise_private policy of `enterprise`. */
export function enterprisePrivate(enterprise: string, changes: Partial<GovernancePolicy> = {}) {
  return policy({
    privacy_scope: 'enterprise_private',
    privacy_boundary: { constraints: [{ kind: 'enterprise', id: enterprise }] },
    allowed_principals: ['alice', 'bob', 'carol'],
    allowed_roles: ['analyst', 'owner'],
    replication_policy: 'tenant_nodes',
    inference_policy: 'private_nodes',
    training_policy: 'tenant_only',
    export_policy: 'approval_required',
    retention_policy: 'expires-at:4102444800000',
    policy_tags: ['confidential'],
    ...changes,
  });
}

/** An asset of `kind` under `governance`. */
export function asset(
  assetId: string,
  governance: GovernancePolicy,
  changes: Partial<CognitiveAsset> = {},
): CognitiveAsset {
  return {
    asset_id: assetId,
    asset_kind: 'kernel.verdict',
    content_hash: contentHash({ asset: assetId }),
    created_at: 1_767_225_600_000,
    governance,
    provenance: { derived_from: [], execution_claims: [], verification_results: [] },
    ...changes,
  };
}

/** A draft with every optional member of the spec filled in. */
export function draft(changes: Partial<EventDraft> = {}): EventDraft {
  return {
    event_id: '0f8b6c2e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    request_id: '1a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9',
    session_id: '2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901',
    event_type: 'verification',
    model_and_expert_versions: ['scripted@1', 'kernel@0.1.0'],
    adaptive_artifact_refs: {
      model_lineage_id: 'scripted',
      target_expert_id: 'gate',
      capability: 'judge',
      judgment_family: 'stakes',
      adapter_or_head_version: 'v1',
      readout_kind: 'decision_head',
    },
    tenant_scope: 'acme',
    owner_id: 'alice',
    creator: 'system',
    source_node: 'node-1',
    outcome: { verdict: 'CONFORMANT', label: 'SMALL', notes: ['ünïcode', 1.5] },
    scores: { confidence: 0.9, verification: 1, grounding: 0.75, execution_success: 1 },
    created_at: 1_767_225_601_234,
    replay: {
      plan_ref: 'plan:refund@1',
      components: { model: 'scripted@1', runtime: 'canonry@0.1.0' },
      seeds: [7],
      validators: ['kernel.resolve'],
    },
    ...changes,
  };
}
