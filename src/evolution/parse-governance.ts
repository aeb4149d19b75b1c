import { compareConstraints, scopeMismatch } from './boundary.js';
import {
  ANYONE,
  BOUNDARY_KINDS,
  type BoundaryConstraint,
  DECLASSIFICATIONS,
  type DeclassificationRule,
  EXPORT_POLICIES,
  type Governance,
  type GovernancePolicy,
  INFERENCE_POLICIES,
  PRIVACY_SCOPES,
  REPLICATION_POLICIES,
  TRAINING_POLICIES,
} from './governance-types.js';
import { FieldError, id, idSet, join, knownKeys, MAX_SET, oneOf, record } from './read-fields.js';
import { readRetention } from './retention.js';

/** The governance members of an event or a policy, in the spec's order. */
export const GOVERNANCE_FIELDS = [
  'privacy_scope',
  'privacy_boundary',
  'allowed_principals',
  'allowed_roles',
  'replication_policy',
  'inference_policy',
  'training_policy',
  'export_policy',
  'retention_policy',
  'policy_tags',
] as const;

const BOUNDARY_KEYS = new Set(['constraints']);
const CONSTRAINT_KEYS = new Set(['kind', 'id']);
const POLICY_KEYS = new Set<string>([...GOVERNANCE_FIELDS, 'declassification']);
const CEILING_KEYS = new Set<string>(GOVERNANCE_FIELDS);
const RULE_KEYS = new Set(['transformation', 'ceiling', 'approver_roles']);
const MAX_RULES = 16;

/**
 * Reads the governance members of `source` (an event or a policy object). `canonical`: sets must be
 * written sorted and without duplicates, as an event writes them; otherwise they are normalised.
 */
export function readGovernance(
  source: Record<string, unknown>,
  path: string,
  canonical: boolean,
): Governance {
  const at = (key: string) => join(path, key);
  const privacy_scope = oneOf(source.privacy_scope, PRIVACY_SCOPES, at('privacy_scope'));
  const constraints = readConstraints(source.privacy_boundary, at('privacy_boundary'), canonical);
  const mismatch = scopeMismatch(privacy_scope, constraints);
  if (mismatch !== null) throw new FieldError(at('privacy_boundary'), mismatch);
  const retention_policy = source.retention_policy;
  if (typeof retention_policy !== 'string' || readRetention(retention_policy) === null) {
    throw new FieldError(
      at('retention_policy'),
      'must be indefinite, expires-at:<ms since the epoch> or ref:<rule id>',
    );
  }
  return {
    privacy_scope,
    privacy_boundary: { constraints },
    allowed_principals: readWho(source.allowed_principals, at('allowed_principals'), canonical),
    allowed_roles: readWho(source.allowed_roles, at('allowed_roles'), canonical),
    replication_policy: oneOf(
      source.replication_policy,
      REPLICATION_POLICIES,
      at('replication_policy'),
    ),
    inference_policy: oneOf(source.inference_policy, INFERENCE_POLICIES, at('inference_policy')),
    training_policy: oneOf(source.training_policy, TRAINING_POLICIES, at('training_policy')),
    export_policy: oneOf(source.export_policy, EXPORT_POLICIES, at('export_policy')),
    retention_policy,
    policy_tags: idSet(source.policy_tags, at('policy_tags'), canonical),
  };
}

/** A source's governance policy: exactly the governance members and optional declassification
 * rules. Sets are normalised; the result is what its policy hash is computed over. */
export function readPolicy(value: unknown, path: string): GovernancePolicy {
  const source = record(value, path);
  knownKeys(source, POLICY_KEYS, path);
  const governance = readGovernance(source, path, false);
  if (source.declassification === undefined) return governance;
  return {
    ...governance,
    declassification: readRules(source.declassification, join(path, 'declassification')),
  };
}

function readRules(value: unknown, path: string): DeclassificationRule[] {
  if (!Array.isArray(value) || value.length > MAX_RULES) {
    throw new FieldError(path, `must be an array of at most ${MAX_RULES} rules`);
  }
  return value.map((item, i) => {
    const at = join(path, i);
    const rule = record(item, at);
    knownKeys(rule, RULE_KEYS, at);
    const ceiling = record(rule.ceiling, join(at, 'ceiling'));
    knownKeys(ceiling, CEILING_KEYS, join(at, 'ceiling'));
    return {
      transformation: oneOf(rule.transformation, DECLASSIFICATIONS, join(at, 'transformation')),
      ceiling: readGovernance(ceiling, join(at, 'ceiling'), false),
      approver_roles: readWho(rule.approver_roles, join(at, 'approver_roles'), false),
    };
  });
}

/** A principal or role set: non-empty, and `*` (anyone) only alone. */
function readWho(value: unknown, path: string, canonical: boolean): string[] {
  const set = idSet(value, path, canonical);
  if (set.length === 0)
    throw new FieldError(path, `must name at least one, or ${ANYONE} for anyone`);
  if (set.length > 1 && set.includes(ANYONE)) {
    throw new FieldError(path, `${ANYONE} (anyone) stands alone`);
  }
  return set;
}

function readConstraints(value: unknown, path: string, canonical: boolean): BoundaryConstraint[] {
  const boundary = record(value, path);
  knownKeys(boundary, BOUNDARY_KEYS, path);
  const list = boundary.constraints;
  const at = join(path, 'constraints');
  if (!Array.isArray(list) || list.length > MAX_SET) {
    throw new FieldError(at, `must be an array of at most ${MAX_SET} constraints`);
  }
  const constraints = list.map((item, i): BoundaryConstraint => {
    const c = record(item, join(at, i));
    knownKeys(c, CONSTRAINT_KEYS, join(at, i));
    return {
      kind: oneOf(c.kind, BOUNDARY_KINDS, join(join(at, i), 'kind')),
      id: id(c.id, join(join(at, i), 'id')),
    };
  });
  if (!canonical) {
    const sorted = constraints.sort(compareConstraints);
    return sorted.filter((c, i) => i === 0 || compareConstraints(sorted[i - 1]!, c) !== 0);
  }
  for (let i = 1; i < constraints.length; i++) {
    if (compareConstraints(constraints[i - 1]!, constraints[i]!) >= 0) {
      throw new FieldError(
        join(at, i),
        'constraints must be sorted by kind, then id, without duplicates',
      );
    }
  }
  return constraints;
}
