import { describe, expect, it } from 'vitest';
import {
  availability,
  generateCorpus,
  norm,
  RollingSummary,
} from '../../bench/relay/lib/corpus.js';
import {
  generateState,
  setupContributions,
  windowContribution,
} from '../../bench/relay/lib/cso.js';
import { dependenciesOf, dependentsBySweep, layeredDag } from '../../bench/relay/lib/dag.js';

describe('bench/relay generators: ground truth', () => {
  it('makes an acyclic layered graph of exactly the edges asked, and sweeps dependents right', () => {
    const g = layeredDag(3, 2_000);
    expect(g.edges).toHaveLength(2_000);
    const order = new Map(g.nodes.map((n, i) => [n.id, i]));
    for (const e of g.edges) expect(order.get(e.depends_on)!).toBeLessThan(order.get(e.dependent)!);
    const keys = new Set(g.edges.map((e) => `${e.dependent}|${e.depends_on}`));
    expect(keys.size).toBe(2_000);
    // A hand-made diamond with a tail and an unrelated node: a ← b, a ← c, {b, c} ← d, d ← e; u.
    const nodes = ['a', 'u', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
    const deps = dependenciesOf([
      { dependent: 'b', depends_on: 'a' },
      { dependent: 'c', depends_on: 'a' },
      { dependent: 'd', depends_on: 'b' },
      { dependent: 'd', depends_on: 'c' },
      { dependent: 'e', depends_on: 'd' },
    ]);
    expect([...dependentsBySweep(nodes, deps, 'a')].sort()).toEqual(['b', 'c', 'd', 'e']);
    expect([...dependentsBySweep(nodes, deps, 'c')].sort()).toEqual(['d', 'e']);
    expect(dependentsBySweep(nodes, deps, 'u').size).toBe(0);
  });

  it('generates a state whose items imply exactly the edges asked, built in windows of ≤ 256 items', () => {
    const size = { facts: 120, decisions: 60, edges: 600, derived: 40, perWindow: 30 };
    const state = generateState(5, size);
    expect(state.facts).toHaveLength(120);
    expect(state.decisions).toHaveLength(60);
    expect(state.edges).toHaveLength(600);
    expect(new Set(state.edges.map((e) => `${e.dependent}|${e.depends_on}`)).size).toBe(600);
    // Every decision rests only on facts of its setup window or earlier, and on earlier decisions.
    const windows = setupContributions(state);
    expect(windows).toHaveLength(4);
    const seen = new Set<string>();
    for (const w of windows) {
      expect(w.facts.length).toBeLessThanOrEqual(256);
      for (const f of w.facts) seen.add(f.fact_id);
      for (const d of w.decisions) {
        for (const on of d.depends_on) expect(seen.has(on)).toBe(true);
        seen.add(d.decision_id);
      }
    }
  });

  it("describes the timed window's effect from the generator's own edges", () => {
    const state = generateState(7, {
      facts: 200,
      decisions: 100,
      edges: 1_000,
      derived: 80,
      perWindow: 50,
    });
    const { contribution, expect: want } = windowContribution(state, {
      restate: 150,
      newFacts: 3,
      newDecisions: 2,
      seed: 8,
    });
    const restated = new Set(contribution.facts.map((f) => f.fact_id));
    // What leaves is the superseded fact's closure; what is dropped is everything else not restated.
    for (const id of [...want.leaving, want.superseded]) expect(restated.has(id)).toBe(false);
    for (const id of want.dropped) expect(restated.has(id)).toBe(false);
    const leaving = new Set([want.superseded, ...want.leaving]);
    expect(want.dropped.length + 150 + leaving.size).toBe(200);
    expect(want.flagged.length).toBeGreaterThanOrEqual(2);
    expect(contribution.facts.find((f) => f.fact_id === 'fn.super')?.supersedes).toEqual([
      want.superseded,
    ]);
  });

  it('records windows that never restate what earlier windows established', () => {
    const corpus = generateCorpus(1, {
      sessions: 2,
      windows: 4,
      facts: 3,
      decisions: 2,
      filler: 2,
    });
    expect(corpus).toHaveLength(8);
    for (const w of corpus) {
      for (const f of w.truth.facts) expect(norm(w.output)).toContain(norm(f.statement));
      for (const d of w.truth.decisions) expect(norm(w.output)).toContain(norm(d.rationale));
      const later = corpus.filter((x) => x.session === w.session && x.window > w.window);
      for (const x of later) {
        const text = norm(`${x.output} ${JSON.stringify(x.contribution)}`);
        for (const f of w.truth.facts) expect(text).not.toContain(norm(f.statement));
        for (const d of w.truth.decisions) expect(text).not.toContain(norm(d.choice));
      }
    }
  });

  it('keeps the rolling summary within its budget by dropping the oldest sentences first', () => {
    const words = (text: string) => text.split(' ').length;
    const s = new RollingSummary(12, words);
    s.add('Filler without numbers. Fact 1 is one. Fact 2 is two.');
    expect(s.text()).toBe('Fact 1 is one. Fact 2 is two.');
    s.add('Fact 3 is three. We decided to stop because of it.');
    expect(words(s.text())).toBeLessThanOrEqual(12);
    expect(s.text()).toBe('Fact 3 is three. We decided to stop because of it.');
    const a = availability(
      { facts: [{ statement: 'Fact 2 is two' }, { statement: 'Fact 3 is three' }], decisions: [] },
      (f) => norm(s.text()).includes(norm(f)),
      () => false,
    );
    expect(a).toEqual({ facts: 1, factTotal: 2, decisions: 0, decisionTotal: 0 });
  });
});
