import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DependencyIndex,
  edgesOf,
  impliedEdges,
  invalidateByEdgeScan,
} from '../../src/relay/graph.js';
import type { DependencyEdge } from '../../src/relay/types.js';
import { decision, etcd, fact, GENESIS, unsealed } from './cso-fixtures.js';

/** §8.3: tool scratch_metrics_004 → fact → decision "scale to 5 nodes". */
function cpu() {
  return unsealed(1, GENESIS, {
    facts: [
      fact('fact_threshold_80pct', 'the scaling threshold is 80% CPU'),
      fact('fact_cpu_87', 'CPU utilisation is 87%', {
        provenance: 'TOOL',
        provenance_ref: 'scratch_metrics_004',
      }),
    ],
    decisions: [
      decision('d_scale', 'scale the cluster to 5 nodes', ['fact_threshold_80pct', 'fact_cpu_87'], {
        provenance: 'TOOL',
        provenance_ref: 'scratch_metrics_004',
      }),
    ],
    constraints: ['stay within budget'],
  });
}

describe('the dependency graph (§3)', () => {
  it('§3.1: invalidating fact A flags B at depth 1 and C at depth 2', () => {
    const index = DependencyIndex.of(etcd());
    expect(index.invalidate(['A'])).toEqual([
      { id: 'B', depth: 1 },
      { id: 'C', depth: 2 },
    ]);
    expect(index.invalidate(['B'])).toEqual([{ id: 'C', depth: 1 }]);
    expect(index.invalidate(['C'])).toEqual([]);
    expect(index.depth()).toBe(2);
  });

  it('§8.3: refreshing scratch_metrics_004 reaches the fact and the decision, not the threshold', () => {
    const cso = cpu();
    const index = DependencyIndex.of(cso);
    const affected = index.invalidate(['scratch_metrics_004']).map((a) => a.id);
    expect(affected.sort()).toEqual(['d_scale', 'fact_cpu_87']);
    expect(invalidateByEdgeScan(cso, 'scratch_metrics_004')).toEqual(new Set(affected));
    expect(index.invalidate(['fact_threshold_80pct'])).toEqual([{ id: 'd_scale', depth: 1 }]);
  });

  it('lists each dependent once, at its shortest depth, and not the invalidated ids', () => {
    const index = DependencyIndex.fromEdges([
      { dependent: 'b', depends_on: 'a' },
      { dependent: 'c', depends_on: 'b' },
      { dependent: 'c', depends_on: 'a' },
      { dependent: 'd', depends_on: 'c' },
      { dependent: 'd', depends_on: 'b' },
    ]);
    expect(index.invalidate(['a'])).toEqual([
      { id: 'b', depth: 1 },
      { id: 'c', depth: 1 },
      { id: 'd', depth: 2 },
    ]);
    expect(index.invalidate(['a', 'b']).map((x) => x.id)).toEqual(['c', 'd']);
    expect(index.depth()).toBe(3);
  });

  it('implies edges from depends_on and TOOL/DERIVED provenance, and normalises them once', () => {
    const cso = cpu();
    expect(impliedEdges(cso)).toEqual([
      { dependent: 'fact_cpu_87', depends_on: 'scratch_metrics_004' },
      { dependent: 'd_scale', depends_on: 'fact_threshold_80pct' },
      { dependent: 'd_scale', depends_on: 'fact_cpu_87' },
      { dependent: 'd_scale', depends_on: 'scratch_metrics_004' },
    ]);
    expect(edgesOf({ ...cso, dependency_graph: [] })).toEqual(cso.dependency_graph);
    expect(cso.dependency_graph.map((e) => e.dependent)).toEqual([
      'd_scale',
      'd_scale',
      'd_scale',
      'fact_cpu_87',
    ]);
  });

  it('slices exactly the closure of what a task rests on, with every constraint', () => {
    const cso = cpu();
    const index = DependencyIndex.of(cso);
    const ofFact = index.slice(cso, ['fact_cpu_87']);
    expect(ofFact.established_facts.map((f) => f.fact_id)).toEqual(['fact_cpu_87']);
    expect(ofFact.decisions).toEqual([]);
    expect(ofFact.scratch_ids).toEqual(['scratch_metrics_004']);
    expect(ofFact.constraints).toEqual(['stay within budget']);
    expect(ofFact.dependency_graph).toEqual([
      { dependent: 'fact_cpu_87', depends_on: 'scratch_metrics_004' },
    ]);
    const ofDecision = index.slice(cso, ['d_scale']);
    expect(ofDecision.established_facts).toHaveLength(2);
    expect(ofDecision.decisions.map((d) => d.decision_id)).toEqual(['d_scale']);
    expect(ofDecision.dependency_graph).toEqual(cso.dependency_graph);
  });

  it('finds a cycle and refuses a depth for a cyclic graph', () => {
    const index = DependencyIndex.fromEdges([
      { dependent: 'a', depends_on: 'b' },
      { dependent: 'b', depends_on: 'c' },
      { dependent: 'c', depends_on: 'a' },
      { dependent: 'x', depends_on: 'a' },
    ]);
    const cycle = index.findCycle()!;
    expect(cycle[0]).toBe(cycle[cycle.length - 1]);
    expect(new Set(cycle)).toEqual(new Set(['a', 'b', 'c']));
    expect(() => index.depth()).toThrow(expect.objectContaining({ code: 'DEPENDENCY_CYCLE' }));
    expect(DependencyIndex.of(etcd()).findCycle()).toBeNull();
  });

  it('handles a chain of 20,000 without recursion', () => {
    const edges: DependencyEdge[] = [];
    for (let i = 1; i < 20_000; i++) edges.push({ dependent: `n${i}`, depends_on: `n${i - 1}` });
    const index = DependencyIndex.fromEdges(edges);
    expect(index.depth()).toBe(19_999);
    expect(index.findCycle()).toBeNull();
    expect(index.invalidate(['n0'])).toHaveLength(19_999);
    expect(index.closure(['n19999']).size).toBe(20_000);
  });
});

/** A random DAG: edges only from a higher-numbered node to a lower one. */
const dag = fc.integer({ min: 2, max: 40 }).chain((n) =>
  fc.tuple(
    fc.constant(n),
    fc.uniqueArray(
      fc
        .tuple(fc.integer({ min: 1, max: n - 1 }), fc.nat({ max: n - 2 }))
        .map(([hi, lo]) => ({ dependent: `n${hi}`, depends_on: `n${lo % hi}` })),
      { maxLength: 120, selector: (e) => `${e.dependent}>${e.depends_on}` },
    ),
  ),
);

describe('the index against the §3.2 edge scan and a naive closure', () => {
  it('invalidate agrees with the edge scan on random DAGs', () => {
    fc.assert(
      fc.property(dag, fc.nat(), ([n, edges], pick) => {
        const root = `n${pick % n}`;
        const index = DependencyIndex.fromEdges(edges);
        const fast = index.invalidate([root]);
        expect(new Set(fast.map((a) => a.id))).toEqual(
          invalidateByEdgeScan({ dependency_graph: edges }, root),
        );
        expect(fast.length).toBe(new Set(fast.map((a) => a.id)).size);
        // A depth is the shortest path: 1 for a direct dependent, else one more than some dependency's.
        const depthOf = new Map(fast.map((a) => [a.id, a.depth]));
        depthOf.set(root, 0);
        for (const { id, depth } of fast) {
          const via = index
            .dependenciesOf(id)
            .filter((d) => depthOf.has(d))
            .map((d) => depthOf.get(d)!);
          expect(depth).toBe(Math.min(...via) + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('slice is exactly the transitive dependencies and depth the longest chain', () => {
    fc.assert(
      fc.property(dag, fc.nat(), ([n, edges], pick) => {
        const root = `n${pick % n}`;
        const index = DependencyIndex.fromEdges(edges);
        // Naive closure: repeat until nothing is added.
        const want = new Set([root]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const e of edges) {
            if (want.has(e.dependent) && !want.has(e.depends_on)) {
              want.add(e.depends_on);
              grew = true;
            }
          }
        }
        expect(index.closure([root])).toEqual(want);
        // Naive longest chain: relax n times.
        const level = new Map<string, number>();
        for (let i = 0; i < n; i++) {
          for (const e of edges) {
            const l = (level.get(e.depends_on) ?? 0) + 1;
            if (l > (level.get(e.dependent) ?? 0)) level.set(e.dependent, l);
          }
        }
        expect(index.depth()).toBe(Math.max(0, ...level.values()));
      }),
      { numRuns: 300 },
    );
  });
});

/** What an index says of every node of `ids`, to compare two indexes of the same edges. */
function view(index: DependencyIndex, ids: readonly string[]) {
  return {
    nodes: [...index.nodes].sort(),
    dependencies: ids.map((id) => [...index.dependenciesOf(id)]),
    dependents: ids.map((id) => [...index.dependentsOf(id)]),
    invalidated: ids.map((id) => index.invalidate([id])),
  };
}

describe('a derived index (layers over the one it came from)', () => {
  it('equals the index of its edges after many generations, with and without chain lengths', () => {
    // Generations of random changes to a DAG on 60 nodes (edges only from a higher to a lower
    // node, so none closes a cycle): each derived from the last, its layer folded when large.
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.array(fc.nat(), { maxLength: 12 }),
            fc.array(fc.tuple(fc.integer({ min: 1, max: 59 }), fc.nat()), { maxLength: 12 }),
            fc.boolean(),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (generations) => {
          const ids = Array.from({ length: 60 }, (_, i) => `n${String(i).padStart(2, '0')}`);
          const key = (e: DependencyEdge) => `${e.dependent}>${e.depends_on}`;
          let edges = new Map<string, DependencyEdge>();
          let index = DependencyIndex.fromEdges([]);
          const older: [DependencyIndex, DependencyEdge[]][] = [];
          for (const [drop, add, levels] of generations) {
            const list = [...edges.values()];
            const removed = [...new Set(drop.map((i) => list[i % Math.max(1, list.length)]!))]
              .filter((e) => e !== undefined)
              .filter((e) => edges.has(key(e)));
            const next = new Map(edges);
            for (const e of removed) next.delete(key(e));
            const added: DependencyEdge[] = [];
            for (const [hi, lo] of add) {
              const e = { dependent: ids[hi]!, depends_on: ids[lo % hi]! };
              if (next.has(key(e))) continue;
              next.set(key(e), e);
              added.push(e);
            }
            older.push([index, [...edges.values()]]);
            index = index.derive(removed, added, { levels });
            edges = next;
            const fresh = DependencyIndex.fromEdges([...edges.values()]);
            expect(view(index, ids)).toEqual(view(fresh, ids));
            expect(index.depth()).toBe(fresh.depth());
            expect(index.findCycle()).toBeNull();
          }
          // Deriving never changed an index it came from.
          for (const [old, oldEdges] of older) {
            expect(view(old, ids)).toEqual(view(DependencyIndex.fromEdges(oldEdges), ids));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('cycleAfter finds a cycle exactly when the changed graph has one, without deriving it', () => {
    // A DAG on 30 nodes (edges from a higher to a lower node), then a change whose added edges may
    // point either way: the answer must match a search of the changed graph built whole, and a
    // cycle it names must be one (each id resting on the next, first = last).
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 29 }), fc.nat()), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(fc.tuple(fc.nat({ max: 29 }), fc.nat({ max: 29 })), { maxLength: 6 }),
        (dag, drop, add) => {
          const id = (i: number) => `n${String(i).padStart(2, '0')}`;
          const key = (e: DependencyEdge) => `${e.dependent}>${e.depends_on}`;
          const edges = new Map<string, DependencyEdge>();
          for (const [hi, lo] of dag) {
            const e = { dependent: id(hi), depends_on: id(lo % hi) };
            edges.set(key(e), e);
          }
          const list = [...edges.values()];
          const removed =
            list.length === 0 ? [] : [...new Set(drop.map((i) => list[i % list.length]!))];
          const after = new Map(edges);
          for (const e of removed) after.delete(key(e));
          const added: DependencyEdge[] = [];
          for (const [a, b] of add) {
            const e = { dependent: id(a), depends_on: id(b) };
            if (a === b || after.has(key(e))) continue;
            after.set(key(e), e);
            added.push(e);
          }
          const base = DependencyIndex.fromEdges(list);
          const found = base.cycleAfter(removed, added);
          const whole = DependencyIndex.fromEdges([...after.values()]).findCycle();
          expect(found === null).toBe(whole === null);
          if (found) {
            expect(found[0]).toBe(found.at(-1));
            for (let i = 1; i < found.length; i++) {
              expect(after.has(`${found[i - 1]}>${found[i]}`)).toBe(true);
            }
          }
          // The index asked is left as it was.
          expect(base.findCycle()).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cycleAfter refuses an index that already has a cycle, as derive does', () => {
    const base = DependencyIndex.fromEdges([
      { dependent: 'a', depends_on: 'b' },
      { dependent: 'b', depends_on: 'a' },
    ]);
    expect(() => base.cycleAfter([], [{ dependent: 'c', depends_on: 'a' }])).toThrow(
      expect.objectContaining({ code: 'DEPENDENCY_CYCLE' }),
    );
  });

  it('refuses an edge that closes a cycle, with or without chain lengths', () => {
    const chain: DependencyEdge[] = [];
    for (let i = 1; i < 50; i++) chain.push({ dependent: `n${i}`, depends_on: `n${i - 1}` });
    const base = DependencyIndex.fromEdges(chain);
    const back = [{ dependent: 'n0', depends_on: 'n49' }];
    for (const levels of [true, false]) {
      expect(() => base.derive([], back, { levels })).toThrow(
        expect.objectContaining({ code: 'DEPENDENCY_CYCLE' }),
      );
      // The same edge once the chain is cut is no cycle.
      expect(base.cycleAfter([], back)).toEqual([
        'n0',
        ...Array.from({ length: 50 }, (_, i) => `n${49 - i}`),
      ]);
      const cut = base.derive([{ dependent: 'n25', depends_on: 'n24' }], back, { levels });
      expect(base.cycleAfter([{ dependent: 'n25', depends_on: 'n24' }], back)).toBeNull();
      expect(cut.findCycle()).toBeNull();
      expect(cut.depth()).toBe(
        DependencyIndex.fromEdges([...chain.filter((e) => e.dependent !== 'n25'), ...back]).depth(),
      );
    }
  });
});
