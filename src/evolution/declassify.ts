import { type ContentHash, ok, type Result } from '../core/index.js';
import type { CognitiveAsset } from './asset-types.js';
import { ANYONE, type Declassification, type Governance } from './governance-types.js';
import { type EvolutionIssue, refuse } from './issues.js';
import { readGovernance } from './parse-governance.js';
import { sourcePolicyHash } from './policy-hash.js';
import { FieldError, record } from './read-fields.js';
import { widerField } from './within.js';

/** A request to make a separately governed asset from one source by a transformation. */
export interface DeclassificationRequest {
  readonly source: CognitiveAsset;
  readonly transformation: Declassification;
  /** The governance the derived asset is to carry. */
  readonly governance: Governance;
  /** The derived asset: its id, the hash of its (transformed) content and when it was made. */
  readonly asset_id: string;
  readonly content_hash: ContentHash;
  readonly created_at: number;
  /** Who approves, as authenticated: never taken from a payload. */
  readonly approver: { readonly principal: string; readonly roles: readonly string[] };
}

/**
 * Makes a declassified asset (GCS: "a controlled redaction or declassification may create a
 * separately governed derived asset only when an explicit source policy authorizes that
 * transformation"). Refused with `DECLASSIFICATION_UNAUTHORIZED` unless a rule of the source's policy
 * names the transformation, the asked governance is within the rule's ceiling, the approver holds
 * one of the rule's approver roles and may use the source. The derived asset records its source,
 * the source's policy hash and the approver; it carries no declassification rule of its own.
 */
export function declassify(
  request: DeclassificationRequest,
): Result<CognitiveAsset, EvolutionIssue> {
  const { source, transformation, approver } = request;
  let governance: Governance;
  try {
    governance = readGovernance(record(request.governance, 'governance'), 'governance', false);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return refuse('INVALID_ASSET', `${error.path}: ${error.message}`, error.path);
  }
  const rules = (source.governance.declassification ?? []).filter(
    (r) => r.transformation === transformation,
  );
  if (rules.length === 0) {
    return refuse(
      'DECLASSIFICATION_UNAUTHORIZED',
      `the policy of ${source.asset_id} authorizes no ${transformation}`,
      'declassification',
    );
  }
  const mayUse = includes(source.governance.allowed_principals, [approver.principal]);
  const fitting = rules.filter((r) => widerField(governance, r.ceiling) === null);
  if (fitting.length === 0) {
    const field = widerField(governance, rules[0]!.ceiling);
    return refuse(
      'DECLASSIFICATION_UNAUTHORIZED',
      `the asked governance is wider than the ${transformation} ceiling in ${field}`,
      field ?? 'governance',
    );
  }
  if (!mayUse || !fitting.some((r) => includes(r.approver_roles, approver.roles))) {
    return refuse(
      'DECLASSIFICATION_UNAUTHORIZED',
      `${approver.principal} may not approve a ${transformation} of ${source.asset_id}`,
      'approver',
    );
  }
  return ok({
    asset_id: request.asset_id,
    asset_kind: 'declassified',
    content_hash: request.content_hash,
    created_at: request.created_at,
    ...(source.tenant_scope === undefined ? {} : { tenant_scope: source.tenant_scope }),
    ...(source.owner_id === undefined ? {} : { owner_id: source.owner_id }),
    governance,
    provenance: {
      derived_from: [...new Set([source.asset_id, ...source.provenance.derived_from])].sort(),
      execution_claims: source.provenance.execution_claims,
      verification_results: source.provenance.verification_results,
    },
    declassified_from: {
      asset_id: source.asset_id,
      policy_hash: sourcePolicyHash(source.governance),
      transformation,
      approved_by: approver.principal,
    },
  });
}

function includes(allowed: readonly string[], wanted: readonly string[]): boolean {
  if (allowed.length === 1 && allowed[0] === ANYONE) return true;
  return wanted.some((w) => allowed.includes(w));
}
