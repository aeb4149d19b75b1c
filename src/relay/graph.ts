import { CanonryError, compareCodeUnits } from '../core/index.js';
import { LayeredMap } from './layered-map.js';
import type { CognitiveStateObject, Decision, DependencyEdge, EstablishedFact } from './types.js';

/**
 * The reasoning dependency graph of CRP-030 §3. Nodes are fact ids, decision ids and tool scratch
 * ids; an edge says `dependent` rests on `depends_on`. Besides the edges a CSO lists explicitly,
 * these are implied by its items (and a CSO's `dependency_graph` must list them too):
 *
 * - a fact with provenance TOOL or DERIVED rests on its `provenance_ref` (a scratch id, a fact id);
 * - a decision rests on each id of its `depends_on`;
 * - a decision with provenance TOOL or DERIVED rests on its `provenance_ref` (§8.2).
 *
 * Scratch ids have no item of their own: a scratch id is a node because a TOOL fact or decision
 * names it.
 */

/** The items whose fields imply edges. */
export interface GraphItems {
  readonly established_facts: readonly EstablishedFact[];
  readonly decisions: readonly Decision[];
}

/** DEPENDENCY_CYCLE naming `cycle` (its first id repeated last), for the graph `what` names. */
export function cycleError(
  cycle: readonly string[],
  what = 'the reasoning dependency graph has a cycle',
): CanonryError {
  const path = cycle.length > 0 ? `: ${cycle.join(' → ')}` : '';
  return new CanonryError('DEPENDENCY_CYCLE', `${what}${path}`, { cycle: [...cycle] });
}

/** The edges `items` imply (see the module comment), in item order. */
export function impliedEdges(items: GraphItems): DependencyEdge[] {
  const edges: DependencyEdge[] = [];
  for (const f of items.established_facts) {
    if (f.provenance === 'TOOL' || f.provenance === 'DERIVED') {
      edges.push({ dependent: f.fact_id, depends_on: f.provenance_ref });
    }
  }
  for (const d of items.decisions) {
    for (const id of d.depends_on) edges.push({ dependent: d.decision_id, depends_on: id });
    if ((d.provenance === 'TOOL' || d.provenance === 'DERIVED') && d.provenance_ref !== undefined) {
      edges.push({ dependent: d.decision_id, depends_on: d.provenance_ref });
    }
  }
  return edges;
}

/** The scratch ids a CSO's items name (TOOL provenance), in item order, each once. */
export function scratchIds(items: GraphItems): string[] {
  const ids = new Set<string>();
  for (const f of items.established_facts) if (f.provenance === 'TOOL') ids.add(f.provenance_ref);
  for (const d of items.decisions) {
    if (d.provenance === 'TOOL' && d.provenance_ref !== undefined) ids.add(d.provenance_ref);
  }
  return [...ids];
}

const scratchSets = new WeakMap<object, ReadonlySet<string>>();

/** {@link scratchIds} of a CSO as a set, worked out once per object (a CSO's lists never change). */
export function scratchIdSet(cso: GraphItems): ReadonlySet<string> {
  let set = scratchSets.get(cso);
  if (!set) {
    set = new Set(scratchIds(cso));
    scratchSets.set(cso, set);
  }
  return set;
}

/** An edge's key in maps and sets: its two ends, NUL apart (a dependent is an id, which holds no NUL). */
export const edgeKey = (e: DependencyEdge): string => `${e.dependent}\u0000${e.depends_on}`;

/**
 * The normal form of a graph: `edges` ∪ the edges `items` imply, each once, sorted by dependent then
 * depends_on (UTF-16 code units), so the same state always has the same bytes.
 */
export function normaliseEdges(
  items: GraphItems,
  edges: readonly DependencyEdge[] = [],
): DependencyEdge[] {
  const normal = alreadyNormal(items, edges);
  if (normal) return normal;
  const unique = new Map<string, DependencyEdge>();
  for (const e of [...edges, ...impliedEdges(items)]) {
    unique.set(edgeKey(e), { dependent: e.dependent, depends_on: e.depends_on });
  }
  return [...unique.entries()].sort(([a], [b]) => compareCodeUnits(a, b)).map(([, e]) => e);
}

/**
 * `edges` itself when it is already the normal form (sorted, each once, every implied edge in it) —
 * what a sealed CSO's graph is, so carrying a state forward does not sort it again — else null.
 */
function alreadyNormal(
  items: GraphItems,
  edges: readonly DependencyEdge[],
): DependencyEdge[] | null {
  const keys = new Set<string>();
  let last = '';
  for (const e of edges) {
    const key = edgeKey(e);
    if (keys.size > 0 && compareCodeUnits(last, key) >= 0) return null;
    keys.add(key);
    last = key;
  }
  for (const e of impliedEdges(items)) if (!keys.has(edgeKey(e))) return null;
  return edges as DependencyEdge[];
}

/** The normalised edges of each CSO seen, by identity: a CSO is immutable once built. */
const normalised = new WeakMap<object, DependencyEdge[]>();

/** Records `edges` as the normal form of `cso`'s graph (worked out when `cso` was built). */
export function rememberEdges(cso: object, edges: DependencyEdge[]): void {
  normalised.set(cso, edges);
}

/** Gives `to` the graph caches worked out for `from` (same items and graph, another object). */
export function carryGraph(from: object, to: object): void {
  const edges = normalised.get(from);
  if (edges) normalised.set(to, edges);
  const index = indexes.get(from);
  if (index) indexes.set(to, index);
}

/** Every edge of a CSO: its `dependency_graph` plus the implied ones, normalised. */
export function edgesOf(cso: GraphItems & Pick<CognitiveStateObject, 'dependency_graph'>) {
  let edges = normalised.get(cso);
  if (!edges) {
    edges = normaliseEdges(cso, cso.dependency_graph);
    normalised.set(cso, edges);
  }
  return edges;
}

/** One item reached by invalidation, at the length of its shortest path from an invalidated id. */
export interface Affected {
  readonly id: string;
  readonly depth: number;
}

/** §7.2: what a micro-task receives — exactly what it rests on. */
export interface CsoSlice {
  readonly established_facts: readonly EstablishedFact[];
  readonly decisions: readonly Decision[];
  /** Hard constraints hold for every task, so a slice carries all of them. */
  readonly constraints: readonly string[];
  /** The edges among the slice's nodes. */
  readonly dependency_graph: readonly DependencyEdge[];
  /** The tool scratch ids in the closure (nodes without an item). */
  readonly scratch_ids: readonly string[];
}

/** The index of each CSO seen (see {@link DependencyIndex.of}). */
const indexes = new WeakMap<object, DependencyIndex>();

/**
 * Forward (what a node rests on) and reverse (what rests on a node) adjacency over a set of edges,
 * so invalidation costs the edges of what it reaches, not a scan of the whole graph per node. Each
 * node's lists are in code-unit order, whichever way the index was built.
 */
export class DependencyIndex {
  readonly #dependencies: LayeredMap<string, readonly string[]>;
  readonly #dependents: LayeredMap<string, readonly string[]>;
  #nodes: Set<string> | undefined;

  private constructor(
    edges: readonly DependencyEdge[],
    from?: {
      dependencies: LayeredMap<string, readonly string[]>;
      dependents: LayeredMap<string, readonly string[]>;
    },
  ) {
    if (from) {
      this.#dependencies = from.dependencies;
      this.#dependents = from.dependents;
      return;
    }
    const dependencies = new Map<string, string[]>();
    const dependents = new Map<string, string[]>();
    for (const { dependent, depends_on } of edges) {
      push(dependencies, dependent, depends_on);
      push(dependents, depends_on, dependent);
    }
    for (const list of dependencies.values()) if (!isSorted(list)) list.sort(compareCodeUnits);
    for (const list of dependents.values()) if (!isSorted(list)) list.sort(compareCodeUnits);
    this.#dependencies = new LayeredMap<string, readonly string[]>(dependencies);
    this.#dependents = new LayeredMap<string, readonly string[]>(dependents);
  }

  /** The index of `edges` as given. */
  static fromEdges(edges: readonly DependencyEdge[]): DependencyIndex {
    return new DependencyIndex(edges);
  }

  /**
   * The index of a CSO's graph: its listed edges and the ones its items imply. Kept per CSO (by
   * identity: a CSO is immutable once built), so the steps of one window share one index.
   */
  static of(cso: GraphItems & Pick<CognitiveStateObject, 'dependency_graph'>): DependencyIndex {
    let index = indexes.get(cso);
    if (!index) {
      index = new DependencyIndex(edgesOf(cso));
      indexes.set(cso, index);
    }
    return index;
  }

  /** The index kept for `cso`, if one was built or remembered. */
  static known(cso: object): DependencyIndex | undefined {
    return indexes.get(cso);
  }

  /** Records `index` as the index of `cso` (one built from the CSO's own edges, or derived). */
  static remember(cso: object, index: DependencyIndex): void {
    indexes.set(cso, index);
  }

  /**
   * This index with `removed` edges taken out and `added` ones put in. The maps are layers over
   * this index's (`LayeredMap`): only the touched nodes' lists are rebuilt. DEPENDENCY_CYCLE when
   * the change closes a cycle — only a node whose dependencies changed can close one, so only
   * what they rest on is searched. With `levels` (the default), and when this index knows its
   * chain lengths, the lengths of the touched nodes and their dependents are recomputed too (they
   * are what `depth` reads); without, they are worked out if `depth` is ever asked.
   */
  derive(
    removed: readonly DependencyEdge[],
    added: readonly DependencyEdge[],
    options: { readonly levels?: boolean } = {},
  ): DependencyIndex {
    const dependencies = this.#dependencies.next();
    const dependents = this.#dependents.next();
    const ownDeps = new Set<string>();
    const ownRevs = new Set<string>();
    const own = (
      map: LayeredMap<string, readonly string[]>,
      mine: Set<string>,
      key: string,
    ): string[] => {
      let list = map.get(key) as string[] | undefined;
      if (!mine.has(key)) {
        list = list ? [...list] : [];
        map.set(key, list);
        mine.add(key);
      }
      return list!;
    };
    const levels = options.levels !== false;
    const known = levels ? this.#knownLevels() : undefined;
    if (!levels && !this.#acyclic) this.#knownLevels(); // a cycle already here is not this change's
    const changed = new Set<string>();
    for (const e of removed) {
      const deps = own(dependencies, ownDeps, e.dependent);
      const i = deps.indexOf(e.depends_on);
      if (i >= 0) deps.splice(i, 1);
      const revs = own(dependents, ownRevs, e.depends_on);
      const j = revs.indexOf(e.dependent);
      if (j >= 0) revs.splice(j, 1);
      changed.add(e.dependent);
      changed.add(e.depends_on);
    }
    for (const e of added) {
      insertSorted(own(dependencies, ownDeps, e.dependent), e.depends_on);
      insertSorted(own(dependents, ownRevs, e.depends_on), e.dependent);
      changed.add(e.dependent);
      if (known && !known.level.has(e.depends_on)) changed.add(e.depends_on); // new to the graph
    }
    for (const id of changed) {
      if (dependencies.get(id)?.length === 0) dependencies.delete(id);
      if (dependents.get(id)?.length === 0) dependents.delete(id);
    }
    const next = new DependencyIndex([], {
      dependencies: dependencies.compact(),
      dependents: dependents.compact(),
    });
    if (known) next.#deriveLevels(known, changed);
    else {
      const cycle = next.#searchCycle(added.map((e) => e.dependent));
      if (cycle) {
        throw cycleError(cycle);
      }
      next.#acyclic = true;
    }
    return next;
  }

  /** Every id that is an endpoint of an edge (worked out when first asked). */
  get nodes(): ReadonlySet<string> {
    if (!this.#nodes) {
      const nodes = new Set<string>(this.#dependencies.keys());
      for (const id of this.#dependents.keys()) nodes.add(id);
      this.#nodes = nodes;
    }
    return this.#nodes;
  }

  #isNode(id: string): boolean {
    return this.#dependencies.has(id) || this.#dependents.has(id);
  }

  /**
   * The cycle that taking `removed` out and putting `added` in would close, or null — without
   * building the changed index: only a node whose dependencies grew can close one, so only what the
   * added edges' dependents rest on is searched, each node's list read through the change.
   * DEPENDENCY_CYCLE when this index already has one (as {@link derive}).
   */
  cycleAfter(
    removed: readonly DependencyEdge[],
    added: readonly DependencyEdge[],
  ): string[] | null {
    if (added.length === 0) return null;
    if (!this.#acyclic) this.#knownLevels();
    const gone = new Map<string, Set<string>>();
    for (const e of removed) {
      const set = gone.get(e.dependent);
      if (set) set.add(e.depends_on);
      else gone.set(e.dependent, new Set([e.depends_on]));
    }
    const more = new Map<string, string[]>();
    for (const e of added) push(more, e.dependent, e.depends_on);
    const changed = new Map<string, readonly string[]>();
    const depsOf = (id: string): readonly string[] => {
      const out = gone.get(id);
      const extra = more.get(id);
      if (!out && !extra) return this.dependenciesOf(id);
      let list = changed.get(id);
      if (!list) {
        const base = this.dependenciesOf(id);
        const kept = out ? base.filter((d) => !out.has(d)) : [...base];
        if (extra) kept.push(...extra);
        changed.set(id, kept);
        list = kept;
      }
      return list;
    };
    return searchCycle(more.keys(), depsOf);
  }

  /** The ids `id` rests on directly. */
  dependenciesOf(id: string): readonly string[] {
    return this.#dependencies.get(id) ?? [];
  }

  /** The ids that rest on `id` directly. */
  dependentsOf(id: string): readonly string[] {
    return this.#dependents.get(id) ?? [];
  }

  /**
   * §3.2: every transitive dependent of `ids`, each once at its shortest depth (1 = rests on an
   * invalidated id directly), breadth first. The invalidated ids themselves are not listed, even
   * when one rests on another. Costs O(roots + affected + their dependent edges).
   */
  invalidate(ids: Iterable<string>): Affected[] {
    const seen = new Set<string>(ids);
    const out: Affected[] = [];
    let frontier = [...seen];
    for (let depth = 1; frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const dependent of this.dependentsOf(id)) {
          if (seen.has(dependent)) continue;
          seen.add(dependent);
          out.push({ id: dependent, depth });
          next.push(dependent);
        }
      }
      frontier = next;
    }
    return out;
  }

  /** `ids` and everything they rest on, transitively. */
  closure(ids: Iterable<string>): Set<string> {
    const seen = new Set<string>(ids);
    const stack = [...seen];
    while (stack.length > 0) {
      for (const dep of this.dependenciesOf(stack.pop()!)) {
        if (!seen.has(dep)) {
          seen.add(dep);
          stack.push(dep);
        }
      }
    }
    return seen;
  }

  /**
   * §7.2 `CSO.slice`: exactly the facts and decisions in the closure of `ids` (the ids themselves
   * and what they rest on), the edges among them, the scratch ids reached, and every constraint.
   */
  slice(cso: SliceSource, ids: Iterable<string>): CsoSlice {
    const closure = this.closure(ids);
    const established_facts = cso.established_facts.filter((f) => closure.has(f.fact_id));
    const decisions = cso.decisions.filter((d) => closure.has(d.decision_id));
    const items = new Set([
      ...established_facts.map((f) => f.fact_id),
      ...decisions.map((d) => d.decision_id),
    ]);
    const tools = new Set(scratchIds(cso));
    return {
      established_facts,
      decisions,
      constraints: cso.constraints,
      dependency_graph: edgesOf(cso).filter(
        (e) => closure.has(e.dependent) && closure.has(e.depends_on),
      ),
      scratch_ids: [...closure]
        .filter((id) => !items.has(id) && tools.has(id))
        .sort(compareCodeUnits),
    };
  }

  #cycle: string[] | null | undefined;
  /** Each node's chain length (edges on the longest chain below it) and how many have each. */
  #levels: Levels | undefined;
  /** Known to have no cycle (its levels settled, or it was derived and searched). */
  #acyclic = false;

  /** A cycle as the ids along it (first = last), or null when the graph is acyclic. */
  findCycle(): string[] | null {
    if (this.#cycle === undefined) this.#cycle = this.#acyclic ? null : this.#searchCycle();
    return this.#cycle === null ? null : [...this.#cycle];
  }

  /** A cycle reachable from `starts` (every node when not given), by what each rests on. */
  #searchCycle(starts: Iterable<string> = this.nodes): string[] | null {
    return searchCycle(starts, (id) => this.dependenciesOf(id));
  }

  /**
   * The maximum depth of the graph: the number of edges on its longest dependency chain (0 without
   * edges), for `CRP-Relay-Dependency-Depth`. DEPENDENCY_CYCLE when the graph has a cycle.
   */
  depth(): number {
    let max = 0;
    for (const l of this.#knownLevels().count.keys()) if (l > max) max = l;
    return max;
  }

  /** The chain lengths, worked out once (a derived index's come from its origin's). */
  #knownLevels(): Levels {
    if (!this.#levels) {
      const levels: Levels = { level: new LayeredMap(), count: new Map() };
      this.#settle(levels, this.nodes);
      levels.level.compact();
      this.#levels = levels;
      this.#acyclic = true;
    }
    return this.#levels;
  }

  /** The chain lengths after a change: the prior's, recomputed for `changed` and what rests on them. */
  #deriveLevels(prior: Levels, changed: ReadonlySet<string>): void {
    const levels: Levels = { level: prior.level.next(), count: new Map(prior.count) };
    const affected = new Set<string>();
    const stack = [...changed];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (affected.has(id)) continue;
      affected.add(id);
      for (const d of this.dependentsOf(id)) if (!affected.has(d)) stack.push(d);
    }
    for (const id of affected) {
      const l = levels.level.get(id);
      if (l === undefined) continue;
      levels.level.delete(id);
      const c = levels.count.get(l)! - 1;
      if (c === 0) levels.count.delete(l);
      else levels.count.set(l, c);
    }
    this.#settle(levels, affected);
    levels.level.compact();
    this.#levels = levels;
    this.#acyclic = true;
  }

  /**
   * Kahn's order over `ids` (those that are nodes): each one's chain length from its dependencies',
   * which are either among `ids` or already in `levels`. DEPENDENCY_CYCLE when some never settle.
   */
  #settle(levels: Levels, ids: Iterable<string>): void {
    const pending = new Map<string, number>();
    let ready: string[] = [];
    for (const id of ids) {
      if (!this.#isNode(id)) continue;
      let n = 0;
      for (const dep of this.dependenciesOf(id)) if (!levels.level.has(dep)) n++;
      pending.set(id, n);
      if (n === 0) ready.push(id);
    }
    let done = 0;
    while (ready.length > 0) {
      const next: string[] = [];
      for (const id of ready) {
        done++;
        let l = 0;
        for (const dep of this.dependenciesOf(id)) {
          const d = levels.level.get(dep)! + 1;
          if (d > l) l = d;
        }
        levels.level.set(id, l);
        levels.count.set(l, (levels.count.get(l) ?? 0) + 1);
        for (const dependent of this.dependentsOf(id)) {
          const left = pending.get(dependent);
          if (left === undefined) continue;
          pending.set(dependent, left - 1);
          if (left === 1) next.push(dependent);
        }
      }
      ready = next;
    }
    if (done < pending.size) {
      throw cycleError(this.findCycle() ?? []);
    }
  }
}

/** Chain lengths by node, and how many nodes have each length. */
interface Levels {
  readonly level: LayeredMap<string, number>;
  readonly count: Map<number, number>;
}

/** What {@link DependencyIndex.slice} reads of a CSO. */
export type SliceSource = GraphItems &
  Pick<CognitiveStateObject, 'dependency_graph' | 'constraints'>;

/**
 * A cycle (the ids along it, first = last) reachable from `starts` by what each node rests on
 * (`depsOf`), depth first without recursion; null when there is none.
 */
function searchCycle(
  starts: Iterable<string>,
  depsOf: (id: string) => readonly string[],
): string[] | null {
  const state = new Map<string, 1 | 2>(); // 1: on the current path; 2: done
  for (const start of starts) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const cursors: number[] = [0];
    state.set(start, 1);
    while (path.length > 0) {
      const node = path[path.length - 1]!;
      const deps = depsOf(node);
      const i = cursors[cursors.length - 1]!;
      if (i === deps.length) {
        state.set(node, 2);
        path.pop();
        cursors.pop();
        continue;
      }
      cursors[cursors.length - 1] = i + 1;
      const next = deps[i]!;
      const s = state.get(next);
      if (s === 1) return [...path.slice(path.indexOf(next)), next];
      if (s === undefined) {
        state.set(next, 1);
        path.push(next);
        cursors.push(0);
      }
    }
  }
  return null;
}

function isSorted(list: readonly string[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1]! > list[i]!) return false;
  return true;
}

/** Inserts `value` into a sorted list, once. */
function insertSorted(list: string[], value: string): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo] !== value) list.splice(lo, 0, value);
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The §3.2 algorithm as the spec writes it — for every id taken from the queue, scan every edge of
 * `cso.dependency_graph` — kept as the baseline the benchmark measures {@link DependencyIndex}
 * against. One change: an id is queued only the first time it is reached. The spec queues it on
 * every edge that reaches it, which walks shared dependents again for each path (exponentially many
 * on a chain of diamonds) and never ends on a cycle.
 */
export function invalidateByEdgeScan(
  cso: Pick<CognitiveStateObject, 'dependency_graph'>,
  invalidatedId: string,
): Set<string> {
  const affected = new Set<string>();
  const queue = [invalidatedId];
  while (queue.length > 0) {
    const node = queue.pop()!;
    for (const edge of cso.dependency_graph) {
      if (edge.depends_on === node && !affected.has(edge.dependent)) {
        affected.add(edge.dependent);
        queue.push(edge.dependent);
      }
    }
  }
  return affected;
}
