import { describe, expect, it } from 'vitest';
import { sealCso } from '../../src/relay/cso-seal.js';
import { DependencyIndex } from '../../src/relay/graph.js';
import { type MergeContext, mergeContribution } from '../../src/relay/merge.js';
import type { CognitiveStateObject, Contribution } from '../../src/relay/types.js';
import { verifyCso } from '../../src/relay/verify.js';
import {
  contribution,
  decision,
  etcd,
  fact,
  GENESIS,
  GOAL,
  SESSION,
  seal,
  unsealed,
} from './cso-fixtures.js';

const H1 = `sha256:${'1'.repeat(64)}`;
const H2 = `sha256:${'2'.repeat(64)}`;

const ctx = (window_number: number): MergeContext => ({
  session_id: SESSION.session_id,
  window_number,
  genesis: GENESIS,
  goal_state: GOAL,
});

/** Merge, verify, seal: one window of the relay. */
function relay(prior: CognitiveStateObject | null, c: Contribution, claims: string[] = []) {
  const n = (prior?.window_number ?? 0) + 1;
  const merged = mergeContribution(prior, c, ctx(n));
  const verified = verifyCso(prior, merged.draft, {
    uncapturedClaims: claims,
    retired: merged.retired,
  });
  return { merged, ...verified, sealed: sealCso(verified.cso, seal) };
}

function fourFacts(): CognitiveStateObject {
  return sealCso(
    unsealed(1, GENESIS, {
      facts: [
        fact('F1', 'The API uses OAuth 2'),
        fact('F2', 'Tokens expire after one hour'),
        fact('F3', 'Refresh tokens rotate'),
        fact('F4', 'Scopes are per tenant'),
      ],
    }),
    seal,
  );
}

describe('merge and verification: preservation (§5)', () => {
  it('window 1: assigns deterministic ids, a clean verification, a sealable CSO', () => {
    const c = contribution({
      facts: [{ statement: 'etcd v3.5 is deployed' }, { statement: 'etcd  V3.5 is deployed.' }],
      decisions: [
        { choice: 'use v3.5 TLS syntax', rationale: 'v3.5 is deployed', depends_on: ['f1.1'] },
      ],
    });
    const a = relay(null, c);
    const b = relay(null, c);
    expect(a.sealed).toEqual(b.sealed); // deterministic, byte for byte
    expect(a.sealed.prior_cso_hash).toBe(GENESIS);
    expect(a.sealed.established_facts.map((f) => f.fact_id)).toEqual(['f1.1']); // deduped
    expect(a.sealed.decisions[0]!.decision_id).toBe('d1.1');
    expect(a.merged.added).toEqual(['f1.1', 'd1.1']);
    expect(a.verification).toEqual({
      preservation: 1,
      repaired: [],
      broken_dependencies: {},
      uncaptured: [],
      verified: true,
    });
    expect(a.sealed.verified).toBe(true);
  });

  it('a window that restates only some prior facts is repaired: preservation 0.5, repaired=2', () => {
    const prior = fourFacts();
    const { merged, verification, sealed } = relay(
      prior,
      contribution({
        facts: [
          { fact_id: 'F1', statement: 'The API uses OAuth 2' },
          { statement: 'tokens  expire after one hour.' }, // restated by statement
          { statement: 'Sessions last a day' },
        ],
      }),
    );
    expect(merged.draft.established_facts.map((f) => f.fact_id)).toEqual(['F1', 'F2', 'f2.1']);
    expect(verification.preservation).toBe(0.5);
    expect(verification.repaired).toEqual(['F3', 'F4']);
    expect(verification.verified).toBe(true);
    expect(sealed.established_facts.map((f) => f.fact_id)).toEqual([
      'F1',
      'F2',
      'F3',
      'F4',
      'f2.1',
    ]);
    expect(sealed.established_facts.slice(0, 4)).toEqual(prior.established_facts); // unchanged
    expect(sealed.established_facts[4]!.window_origin).toBe(2);
  });

  it('restores a prior fact the draft altered under its id, and counts it', () => {
    const prior = fourFacts();
    const merged = mergeContribution(
      prior,
      contribution({
        facts: prior.established_facts.map((f) => ({ fact_id: f.fact_id, statement: f.statement })),
      }),
      ctx(2),
    );
    const altered = {
      ...merged.draft,
      established_facts: merged.draft.established_facts.map((f) =>
        f.fact_id === 'F3' ? { ...f, statement: 'Refresh tokens never rotate' } : f,
      ),
    };
    const { cso, verification } = verifyCso(prior, altered, { uncapturedClaims: [] });
    expect(verification.preservation).toBe(0.75);
    expect(verification.repaired).toEqual(['F3']);
    expect(cso.established_facts.find((f) => f.fact_id === 'F3')!.statement).toBe(
      'Refresh tokens rotate',
    );
  });

  it('captures uncaptured claims at lower confidence, once, and not what a fact states', () => {
    const { verification, sealed } = relay(
      fourFacts(),
      contribution({ facts: [{ fact_id: 'F1', statement: 'The API uses OAuth 2' }] }),
      ['The API uses OAuth 2.', 'Audit logs are kept 90 days', 'audit logs are kept 90 days'],
    );
    expect(verification.uncaptured).toEqual(['Audit logs are kept 90 days']);
    const added = sealed.established_facts.find((f) => f.fact_id === 'u2.1')!;
    expect(added).toMatchObject({ provenance: 'CONVERSATION', confidence: 0.5, window_origin: 2 });
  });

  it('a decision resting on an id that is nowhere is not verified, and names it', () => {
    const merged = mergeContribution(
      null,
      contribution({ decisions: [{ choice: 'x', rationale: 'y', depends_on: ['nowhere'] }] }),
      ctx(1),
    );
    const { cso, verification } = verifyCso(null, merged.draft, { uncapturedClaims: [] });
    expect(verification.verified).toBe(false);
    expect(cso.verified).toBe(false);
    expect(verification.broken_dependencies).toEqual({ 'd1.1': ['nowhere'] });
    expect(() => sealCso(cso, seal)).toThrow(/depends_on/);
  });

  it('refuses a contribution whose decisions depend on each other', () => {
    expect(() =>
      mergeContribution(
        null,
        contribution({
          decisions: [
            { decision_id: 'x', choice: 'x', rationale: '', depends_on: ['y'] },
            { decision_id: 'y', choice: 'y', rationale: '', depends_on: ['x'] },
          ],
        }),
        ctx(1),
      ),
    ).toThrow(expect.objectContaining({ code: 'DEPENDENCY_CYCLE' }));
  });

  it('refuses a revision that closes a cycle through the prior state, naming it', () => {
    // C rests on B; B's revision rests on C, and C is re-pointed to the revision: B' → C → B'.
    let thrown: unknown;
    try {
      mergeContribution(
        etcd(),
        contribution({
          decisions: [
            {
              revises: 'B',
              choice: 'keep the old syntax',
              rationale: 'certs first',
              depends_on: ['C'],
            },
          ],
        }),
        ctx(2),
      );
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: 'DEPENDENCY_CYCLE' });
    const cycle = (thrown as { details: { cycle: string[] } }).details.cycle;
    expect(cycle[0]).toBe(cycle.at(-1));
    expect(new Set(cycle)).toEqual(new Set(['C', 'd2.1']));
    expect((thrown as Error).message).toBe(`the contribution makes a cycle: ${cycle.join(' → ')}`);
  });

  it('refuses a window number that does not follow the prior', () => {
    expect(() => mergeContribution(etcd(), contribution(), ctx(3))).toThrow(/cannot follow/);
  });
});

describe('merge: invalidation and revision (§3, §6, §8.3)', () => {
  it('§3.1: "actually v3.4" supersedes A; B and C are flagged; A is not re-injected', () => {
    const w1 = etcd();
    const w2 = relay(
      w1,
      contribution({
        facts: [
          {
            statement: 'actually the deployment is etcd v3.4',
            provenance: 'USER',
            provenance_ref: 'turn-7',
            supersedes: ['A'],
          },
        ],
      }),
    );
    expect(w2.merged.superseded).toEqual(['A']);
    expect([...w2.merged.flagged].sort()).toEqual(['B', 'C']);
    expect(w2.verification).toMatchObject({ preservation: 1, repaired: [], verified: true });
    expect(w2.sealed.established_facts.map((f) => f.fact_id)).toEqual(['f2.1']);
    expect(w2.sealed.decisions.map((d) => [d.decision_id, d.needs_revision])).toEqual([
      ['B', true],
      ['C', true],
    ]);

    // The revision window (§6.2): B is revised given f2.1; C is re-pointed and stays flagged.
    const w3 = relay(
      w2.sealed,
      contribution({
        facts: [{ fact_id: 'f2.1', statement: 'actually the deployment is etcd v3.4' }],
        decisions: [
          {
            choice: 'use the v3.4 TLS syntax',
            rationale: 'v3.4 is deployed',
            depends_on: ['f2.1'],
            revises: 'B',
          },
        ],
      }),
    );
    expect(w3.merged.superseded).toEqual(['B']);
    const byId = new Map(w3.sealed.decisions.map((d) => [d.decision_id, d]));
    expect(byId.has('B')).toBe(false);
    expect(byId.get('d3.1')).toMatchObject({ revises: 'B', revisions: 1, depends_on: ['f2.1'] });
    expect(byId.get('d3.1')!.needs_revision).toBeUndefined();
    expect(byId.get('C')).toMatchObject({ depends_on: ['d3.1'], needs_revision: true });
    expect(
      DependencyIndex.of(w3.sealed)
        .invalidate(['f2.1'])
        .map((a) => a.id),
    ).toEqual(['d3.1', 'C']);
  });

  it('§6.3: a decision revised MAX_REVISIONS times, or not revisable, is not revised again', () => {
    const prior = sealCso(
      unsealed(1, GENESIS, {
        facts: [fact('A', 'a')],
        decisions: [
          decision('B', 'b', ['A'], { revisions: 3 }),
          decision('K', 'k', ['A'], { revisable: false }),
        ],
      }),
      seal,
    );
    const merged = mergeContribution(
      prior,
      contribution({
        decisions: [
          { choice: 'b2', rationale: 'r', revises: 'B' },
          { choice: 'k2', rationale: 'r', revises: 'K' },
          { choice: 'z2', rationale: 'r', revises: 'Z' },
        ],
      }),
      ctx(2),
    );
    expect(merged.refused).toEqual([
      { decision_id: 'B', reason: 'max_revisions' },
      { decision_id: 'K', reason: 'not_revisable' },
      { decision_id: 'Z', reason: 'unknown' },
    ]);
    expect(merged.draft.decisions.map((d) => d.decision_id)).toEqual(['B', 'K']);
  });

  it('§8.3: the CPU reading refreshed to another value flags "scale to 5 nodes"', () => {
    const w1 = relay(
      null,
      contribution({
        facts: [
          {
            statement: 'the scaling threshold is 80% CPU',
            provenance: 'USER',
            provenance_ref: 'turn-1',
          },
        ],
        tool_results: [
          {
            scratch_id: 'scratch_metrics_004',
            tool: 'metrics',
            result_hash: H1,
            summary: 'CPU utilisation is 87%',
          },
        ],
        decisions: [
          {
            choice: 'scale the cluster to 5 nodes',
            rationale: 'current CPU utilisation is 87%, above the 80% threshold',
            depends_on: ['f1.1', 'f1.2'],
            provenance: 'TOOL',
            provenance_ref: 'scratch_metrics_004',
          },
        ],
      }),
    );
    expect(w1.sealed.established_facts[1]).toMatchObject({
      fact_id: 'f1.2',
      provenance: 'TOOL',
      provenance_ref: 'scratch_metrics_004',
      result_hash: H1,
    });
    const restate = [{ fact_id: 'f1.1', statement: 'the scaling threshold is 80% CPU' }];

    // The same value again: nothing is flagged, the tool fact is restated.
    const same = relay(
      w1.sealed,
      contribution({
        facts: restate,
        tool_results: [
          {
            scratch_id: 'scratch_metrics_004',
            tool: 'metrics',
            result_hash: H1,
            summary: 'CPU utilisation is 87%',
          },
        ],
      }),
    );
    expect(same.merged.flagged).toEqual([]);
    expect(same.verification.preservation).toBe(1);

    // Refreshed to 45%: the old reading leaves, the new one is stated, the decision is flagged.
    const fresh = relay(
      w1.sealed,
      contribution({
        facts: restate,
        tool_results: [
          {
            scratch_id: 'scratch_metrics_004',
            tool: 'metrics',
            result_hash: H2,
            summary: 'CPU utilisation is 45%',
          },
        ],
      }),
    );
    expect([...fresh.merged.invalidated].sort()).toEqual(['f1.2', 'scratch_metrics_004']);
    expect(fresh.merged.flagged).toEqual(['d1.1']);
    expect(fresh.verification).toMatchObject({ preservation: 1, verified: true });
    expect(fresh.sealed.established_facts.map((f) => [f.fact_id, f.statement])).toEqual([
      ['f1.1', 'the scaling threshold is 80% CPU'],
      ['f2.1', 'CPU utilisation is 45%'],
    ]);
    expect(fresh.sealed.decisions[0]).toMatchObject({ decision_id: 'd1.1', needs_revision: true });
  });

  it('invalidating a fact removes what is derived from it and flags decisions on both', () => {
    const prior = sealCso(
      unsealed(1, GENESIS, {
        facts: [
          fact('A', 'a'),
          fact('D', 'derived from a', { provenance: 'DERIVED', provenance_ref: 'A' }),
          fact('E', 'e'),
        ],
        decisions: [decision('X', 'x', ['D']), decision('Y', 'y', ['E'])],
      }),
      seal,
    );
    const w2 = relay(
      prior,
      contribution({ facts: [{ fact_id: 'E', statement: 'e' }], invalidates: ['A', 'nope'] }),
    );
    expect(w2.merged.invalidated).toEqual(['A', 'D']);
    expect(w2.merged.flagged).toEqual(['X']);
    expect(w2.merged.ignored).toEqual(['nope']);
    expect(w2.verification).toMatchObject({ preservation: 1, repaired: [] });
    expect(w2.sealed.established_facts.map((f) => f.fact_id)).toEqual(['E']);
  });
});

describe('merge: what remains', () => {
  it('removes resolved questions and completed items, unions constraints, moves completion', () => {
    const prior = sealCso(
      {
        ...unsealed(1, GENESIS, { constraints: ['no downtime'] }),
        open_questions: ['Which CA?', 'Which port?'],
      },
      seal,
    );
    const merged = mergeContribution(
      prior,
      contribution({
        open_questions: ['Which cipher suites?', 'which  CA?'],
        resolved_questions: ['which port?'],
        constraints: ['No downtime.', 'FIPS only'],
        completed: ['tls'],
      }),
      {
        ...ctx(2),
        goal_state: { ...GOAL, remaining: ['tls', 'certs', 'rollout'], completion: 0.25 },
      },
    );
    expect(merged.draft.open_questions).toEqual(['Which CA?', 'Which cipher suites?']);
    expect(merged.draft.constraints).toEqual(['no downtime', 'FIPS only']);
    expect(merged.draft.goal_state.remaining).toEqual(['certs', 'rollout']);
    expect(merged.draft.goal_state.completion).toBe(0.5); // 1 of 4 done → 2 of 4
  });
});
