import type { JournalEntry } from '../journal/index.js';
import type { AssetKind, CognitiveAsset } from './asset-types.js';
import type { GovernancePolicy } from './governance-types.js';

/** The id of the asset a journal entry is: `<kind>:<project>:<seq>` (an item of it: `#<n>`). */
export function entryAssetId(entry: JournalEntry, item?: number): string {
  const id = `${entry.kind}:${entry.project}:${entry.seq}`;
  return item === undefined ? id : `${id}#${item}`;
}

/**
 * A journal entry as a cognitive asset: referenced by its place and hash in the chain, never
 * copied; governed by `governance`; derived from `derived_from` (other assets' ids).
 */
export function entryAsset(
  entry: JournalEntry,
  kind: AssetKind,
  governance: GovernancePolicy,
  derived_from: readonly string[] = [],
): CognitiveAsset {
  return {
    asset_id: entryAssetId(entry),
    asset_kind: kind,
    content_hash: entry.hash,
    created_at: Date.parse(entry.at),
    journal_ref: { project: entry.project, seq: entry.seq, hash: entry.hash },
    governance,
    provenance: {
      derived_from: [...new Set(derived_from)].sort(),
      execution_claims: [],
      verification_results: [],
    },
  };
}

/**
 * The governance a project's assets carry unless the deployment says otherwise: bound to the
 * project (a `project` constraint every path must enforce), anyone the project admits, kept on
 * this node (no replication, local inference), trained on locally only, exported only with an
 * approval — configuring an external target is that approval —, kept indefinitely.
 */
export function projectGovernance(project: string): GovernancePolicy {
  return {
    privacy_scope: 'shared',
    privacy_boundary: { constraints: [{ kind: 'project', id: project }] },
    allowed_principals: ['*'],
    allowed_roles: ['*'],
    replication_policy: 'none',
    inference_policy: 'local_only',
    training_policy: 'local_only',
    export_policy: 'approval_required',
    retention_policy: 'indefinite',
    policy_tags: [],
  };
}
