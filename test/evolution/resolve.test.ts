import { describe, expect, it } from 'vitest';
import {
  admitForPath,
  declassify,
  type Governance,
  resolveGovernance,
  sourcePolicyHash,
  widerField,
} from '../../src/evolution/index.js';
import { asset, enterprisePrivate, OPEN, policy, userPrivate } from './assets.js';

const code = (result: { ok: boolean; issues?: readonly { code: string }[] }) =>
  result.ok ? 'OK' : result.issues![0]!.code;
const path = (result: { ok: boolean; issues?: readonly { path?: string }[] }) =>
  result.ok ? undefined : result.issues![0]!.path;

describe('governance resolution (GCS rules)', () => {
  it('conjoins a user_private and an enterprise_private boundary instead of picking one', () => {
    const user = asset('a:1', userPrivate('alice'));
    const enterprise = asset('a:2', enterprisePrivate('acme'));
    const resolved = resolveGovernance([user, enterprise]);
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    const g = resolved.value.governance;
    expect(g.privacy_scope).toBe('compound');
    expect(g.privacy_boundary.constraints).toEqual([
      { kind: 'enterprise', id: 'acme' },
      { kind: 'user', id: 'alice' },
    ]);
    expect(g.allowed_principals).toEqual(['alice']);
    expect(g.allowed_roles).toEqual(['analyst', 'owner']);
    // trusted_devices ∩ tenant_nodes, private_nodes ∩ private_nodes, local_only ∩ tenant_only
    expect(g.replication_policy).toBe('trusted_devices');
    expect(g.inference_policy).toBe('private_nodes');
    expect(g.training_policy).toBe('local_only');
    expect(g.retention_policy).toBe('expires-at:4102444800000');
    expect(g.policy_tags).toEqual(['confidential']);
    expect(resolved.value.source_assets).toEqual(['a:1', 'a:2']);
    expect(resolved.value.source_policy_hashes).toEqual(
      [sourcePolicyHash(user.governance), sourcePolicyHash(enterprise.governance)].sort(),
    );
    expect(resolved.value.provenance.derived_from).toEqual(['a:1', 'a:2']);
    expect(widerField(g, user.governance)).toBeNull();
    expect(widerField(g, enterprise.governance)).toBeNull();
  });

  it('keeps the scope when every non-public source shares it, tags and provenance united', () => {
    const a = asset('a:1', enterprisePrivate('acme', { policy_tags: ['pii'] }), {
      provenance: {
        derived_from: ['msg:1'],
        execution_claims: ['tool:1'],
        verification_results: [],
      },
    });
    const b = asset('a:2', enterprisePrivate('acme'), {
      provenance: { derived_from: [], execution_claims: [], verification_results: ['v:9'] },
    });
    const open = asset('a:3', policy());
    const resolved = resolveGovernance([open, b, a]);
    if (!resolved.ok) throw new Error(resolved.issues[0]!.message);
    expect(resolved.value.governance.privacy_scope).toBe('enterprise_private');
    expect(resolved.value.governance.policy_tags).toEqual(['confidential', 'pii']);
    expect(resolved.value.provenance).toEqual({
      derived_from: ['a:1', 'a:2', 'a:3', 'msg:1'],
      execution_claims: ['tool:1'],
      verification_results: ['v:9'],
    });
  });

  it('intersects the request, tenant and deployment permissions too, and binds their hashes', () => {
    const request = policy({ allowed_roles: ['analyst'], export_policy: 'prohibited' });
    const resolved = resolveGovernance([asset('a:1', enterprisePrivate('acme'))], {
      context: [{ source: 'request', policy: request }],
    });
    if (!resolved.ok) throw new Error(resolved.issues[0]!.message);
    expect(resolved.value.governance.allowed_roles).toEqual(['analyst']);
    expect(resolved.value.governance.export_policy).toBe('prohibited');
    expect(resolved.value.source_policy_hashes).toContain(sourcePolicyHash(request));
  });

  describe('each rejection, with its reason', () => {
    it('no principal in common: empty', () => {
      const result = resolveGovernance([
        asset('a:1', userPrivate('alice')),
        asset('a:2', policy({ allowed_principals: ['bob'] })),
      ]);
      expect([code(result), path(result)]).toEqual(['GOVERNANCE_EMPTY', 'allowed_principals']);
    });

    it('no role in common: empty', () => {
      const result = resolveGovernance([
        asset('a:1', policy({ allowed_roles: ['owner'] })),
        asset('a:2', policy({ allowed_roles: ['agent'] })),
      ]);
      expect([code(result), path(result)]).toEqual(['GOVERNANCE_EMPTY', 'allowed_roles']);
    });

    it('a retention already past: empty', () => {
      const result = resolveGovernance(
        [asset('a:1', policy({ retention_policy: 'expires-at:1000' }))],
        {
          now: 1000,
        },
      );
      expect([code(result), path(result)]).toEqual(['GOVERNANCE_EMPTY', 'retention_policy']);
    });

    it('two users, or two enterprises: contradictory', () => {
      const users = resolveGovernance([
        asset('a:1', userPrivate('alice')),
        asset('a:2', userPrivate('bob', { allowed_principals: ['alice', 'bob'] })),
      ]);
      expect([code(users), path(users)]).toEqual(['GOVERNANCE_CONTRADICTORY', 'privacy_boundary']);
      const enterprises = resolveGovernance([
        asset('a:1', enterprisePrivate('acme')),
        asset('a:2', enterprisePrivate('globex')),
      ]);
      expect(code(enterprises)).toBe('GOVERNANCE_CONTRADICTORY');
    });

    it('two device groups conjoin: a node may sit in both', () => {
      const group = (id: string) =>
        policy({
          privacy_scope: 'trusted_devices',
          privacy_boundary: { constraints: [{ kind: 'device_group', id }] },
        });
      const result = resolveGovernance([
        asset('a:1', group('laptops')),
        asset('a:2', group('office')),
      ]);
      expect(code(result)).toBe('OK');
    });

    it('one asset given with two policies: contradictory', () => {
      const result = resolveGovernance([
        asset('a:1', policy()),
        asset('a:1', userPrivate('alice')),
      ]);
      expect(code(result)).toBe('GOVERNANCE_CONTRADICTORY');
    });

    it('local-only and anonymized-opt-in training: no schema value permits exactly that', () => {
      const result = resolveGovernance([
        asset('a:1', policy({ training_policy: 'local_only' })),
        asset('a:2', policy({ training_policy: 'anonymized_opt_in' })),
      ]);
      expect([code(result), path(result)]).toEqual([
        'GOVERNANCE_UNREPRESENTABLE',
        'training_policy',
      ]);
    });

    it('two named retention rules, or a rule and a date: unrepresentable', () => {
      const rules = resolveGovernance([
        asset('a:1', policy({ retention_policy: 'ref:gdpr-30d' })),
        asset('a:2', policy({ retention_policy: 'ref:legal-hold' })),
      ]);
      expect([code(rules), path(rules)]).toEqual([
        'GOVERNANCE_UNREPRESENTABLE',
        'retention_policy',
      ]);
      const mixed = resolveGovernance([
        asset('a:1', policy({ retention_policy: 'ref:gdpr-30d' })),
        asset('a:2', policy({ retention_policy: 'expires-at:5000' })),
      ]);
      expect(code(mixed)).toBe('GOVERNANCE_UNREPRESENTABLE');
    });

    it('no source at all: empty', () => {
      expect(code(resolveGovernance([]))).toBe('GOVERNANCE_EMPTY');
    });
  });
});

describe('admission to a dispatch path', () => {
  const resolved = resolveGovernance([
    asset('a:1', userPrivate('alice')),
    asset('a:2', enterprisePrivate('acme')),
  ]);
  if (!resolved.ok) throw new Error('fixture');
  const g = resolved.value.governance;

  it('admits a path that enforces every constraint and does only what is permitted', () => {
    const result = admitForPath(g, {
      name: 'memory',
      enforces: ['user', 'enterprise'],
      user: { principal: 'alice', roles: ['analyst'] },
      replicates_to: ['trusted_devices'],
      infers_at: ['local', 'private_nodes'],
      trains: [{ location: 'local', form: 'raw' }],
      exports: ['with_approval'],
      keeps_until: 4_102_444_800_000,
    });
    expect(code(result)).toBe('OK');
  });

  it('refuses a path that cannot enforce a constraint: unenforceable', () => {
    const result = admitForPath(g, { name: 'benchmark', enforces: ['enterprise'] });
    expect([code(result), path(result)]).toEqual(['GOVERNANCE_UNENFORCEABLE', 'privacy_boundary']);
  });

  it('refuses a path that would do what the governance does not permit', () => {
    const base = { name: 'air-tuning', enforces: ['user', 'enterprise'] as const };
    const cases: [object, string][] = [
      [{ replicates_to: ['tenant_nodes'] }, 'replication_policy'],
      [{ infers_at: ['public_redacted'] }, 'inference_policy'],
      [{ trains: [{ location: 'tenant', form: 'raw' }] }, 'training_policy'],
      [{ exports: ['without_approval'] }, 'export_policy'],
      [{ user: { principal: 'bob', roles: ['analyst'] } }, 'allowed_principals'],
      [{ user: { principal: 'alice', roles: ['agent'] } }, 'allowed_roles'],
      [{ keeps_until: 4_102_444_800_001 }, 'retention_policy'],
    ];
    for (const [extra, field] of cases) {
      const result = admitForPath(g, { ...base, ...extra });
      expect([code(result), path(result)], field).toEqual(['GOVERNANCE_FORBIDS', field]);
    }
  });

  it('refuses to keep an event under a retention rule the path cannot date', () => {
    const ruled: Governance = { ...OPEN, retention_policy: 'ref:legal-hold' };
    const result = admitForPath(ruled, { name: 'protocol', enforces: [], keeps_until: 1 });
    expect(code(result)).toBe('GOVERNANCE_UNENFORCEABLE');
  });
});

describe('declassification', () => {
  const redacted: Governance = {
    ...OPEN,
    privacy_scope: 'enterprise_private',
    privacy_boundary: { constraints: [{ kind: 'enterprise', id: 'acme' }] },
    allowed_principals: ['*'],
    training_policy: 'tenant_only',
    export_policy: 'approval_required',
  };
  const source = asset(
    'a:1',
    userPrivate('alice', {
      declassification: [
        { transformation: 'redaction', ceiling: redacted, approver_roles: ['privacy-officer'] },
      ],
    }),
  );
  const request = {
    source,
    transformation: 'redaction' as const,
    governance: redacted,
    asset_id: 'a:1/redacted',
    content_hash: source.content_hash,
    created_at: 1,
    approver: { principal: 'alice', roles: ['privacy-officer'] },
  };

  it('makes a separately governed asset where the source policy authorizes it', () => {
    const derived = declassify(request);
    if (!derived.ok) throw new Error(derived.issues[0]!.message);
    expect(derived.value.asset_kind).toBe('declassified');
    expect(derived.value.governance).toEqual(redacted);
    expect(derived.value.governance.declassification).toBeUndefined();
    expect(derived.value.declassified_from).toEqual({
      asset_id: 'a:1',
      policy_hash: sourcePolicyHash(source.governance),
      transformation: 'redaction',
      approved_by: 'alice',
    });
    expect(derived.value.provenance.derived_from).toEqual(['a:1']);
    // An event from the derived asset carries the derived governance, not the source's.
    const resolved = resolveGovernance([derived.value]);
    expect(resolved.ok && resolved.value.governance.allowed_principals).toEqual(['*']);
  });

  it('refuses a transformation no rule names, a governance past the ceiling, an approver without the role', () => {
    const none = declassify({ ...request, transformation: 'anonymization' });
    expect(code(none)).toBe('DECLASSIFICATION_UNAUTHORIZED');
    const wider = declassify({ ...request, governance: { ...redacted, export_policy: 'allowed' } });
    expect([code(wider), path(wider)]).toEqual(['DECLASSIFICATION_UNAUTHORIZED', 'export_policy']);
    const approver = declassify({
      ...request,
      approver: { principal: 'alice', roles: ['analyst'] },
    });
    expect([code(approver), path(approver)]).toEqual(['DECLASSIFICATION_UNAUTHORIZED', 'approver']);
    const stranger = declassify({
      ...request,
      approver: { principal: 'mallory', roles: ['privacy-officer'] },
    });
    expect(code(stranger)).toBe('DECLASSIFICATION_UNAUTHORIZED');
  });

  it('never passes a source rule to an event: intersection drops declassification', () => {
    const resolved = resolveGovernance([source]);
    expect(resolved.ok && 'declassification' in resolved.value.governance).toBe(false);
    const open = declassify({ ...request, source: asset('a:2', policy()) });
    expect(code(open)).toBe('DECLASSIFICATION_UNAUTHORIZED');
  });
});
