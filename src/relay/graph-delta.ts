import { compareCodeUnits } from '../core/index.js';
import {
  carryGraph,
  cycleError,
  DependencyIndex,
  edgeKey,
  type GraphItems,
  impliedEdges,
  rememberEdges,
} from './graph.js';
import type { CognitiveStateObject, Decision, DependencyEdge, EstablishedFact } from './types.js';

/**
 * A CSO's graph worked out from its predecessor's, for what changed: most items of a window are
 * the prior's own objects, and only the edges of items that are new, replaced or gone are
 * touched. The result is the normal form `normaliseEdges` gives (sorted, each edge once, every
 * implied edge), with the prior's edge objects kept where an edge stays, so what is cached by
 * identity (edge digests) still holds.
 */

type GraphSource = GraphItems & Pick<CognitiveStateObject, 'dependency_graph'>;

/** What is known of a CSO's graph: normal (sorted, unique, implied edges in) and its extra edges. */
interface GraphShape {
  readonly normal: boolean;
  /** Listed edges that no item implies. */
  readonly explicit: readonly DependencyEdge[];
}

const shapes = new WeakMap<object, GraphShape>();

const compare = (a: DependencyEdge, b: DependencyEdge): number =>
  a.dependent < b.dependent
    ? -1
    : a.dependent > b.dependent
      ? 1
      : a.depends_on < b.depends_on
        ? -1
        : a.depends_on > b.depends_on
          ? 1
          : 0;

/** The ids an item rests on by its own fields, sorted, each once. */
function impliedOf(item: EstablishedFact | Decision): string[] {
  const out: string[] = [];
  if ('fact_id' in item) {
    if (item.provenance === 'TOOL' || item.provenance === 'DERIVED') out.push(item.provenance_ref);
  } else {
    out.push(...item.depends_on);
    if (
      (item.provenance === 'TOOL' || item.provenance === 'DERIVED') &&
      item.provenance_ref !== undefined
    ) {
      out.push(item.provenance_ref);
    }
  }
  if (out.length < 2) return out;
  return [...new Set(out)].sort(compareCodeUnits);
}

/** The shape of a CSO's graph (worked out once per object). */
export function graphShape(cso: GraphSource): GraphShape {
  let shape = shapes.get(cso);
  if (shape) return shape;
  const implied = new Set(impliedEdges(cso).map(edgeKey));
  const listed = new Set<string>();
  const explicit: DependencyEdge[] = [];
  let normal = true;
  cso.dependency_graph.forEach((e, i) => {
    const key = edgeKey(e);
    if (i > 0 && compare(cso.dependency_graph[i - 1]!, e) >= 0) normal = false;
    listed.add(key);
    if (!implied.has(key)) explicit.push(e);
  });
  for (const key of implied) if (!listed.has(key)) normal = false;
  shape = { normal, explicit };
  shapes.set(cso, shape);
  return shape;
}

/** Whether `cso`'s graph is known to be in normal form (sorted, each edge once) without a look. */
export function knownNormal(cso: object): boolean {
  return shapes.get(cso)?.normal === true;
}

/** Records the shape of a graph this module built. */
function remember(cso: object, explicit: readonly DependencyEdge[]): void {
  shapes.set(cso, { normal: true, explicit });
}

/** A step that worked out the changed index (`stepGraph` without `index: false`). */
export type IndexedStep = GraphStep & { readonly index: DependencyIndex };

/** The graph of `next`'s items (and `explicit` edges) from the prior's, and what changed. */
export interface GraphStep {
  readonly graph: DependencyEdge[];
  readonly removed: readonly DependencyEdge[];
  readonly added: readonly DependencyEdge[];
  /** Ids of the prior's items that the new items do not hold. */
  readonly gone: readonly string[];
  /** The new items by id (`itemsById` of a CSO holding them); null when an id is used twice. */
  readonly byId: Map<string, EstablishedFact | Decision> | null;
  /** The new items that are not the prior's objects (new, or replaced), in list order. */
  readonly fresh: { readonly facts: EstablishedFact[]; readonly decisions: Decision[] };
  /**
   * The prior's index with the change applied; null when the step was asked for none (`index:
   * false`: a draft that verification steps again from the prior). Either way a change that closes
   * a cycle throws DEPENDENCY_CYCLE.
   */
  readonly index: DependencyIndex | null;
  readonly explicit: readonly DependencyEdge[];
}

/** Items by id, per CSO object. */
const byId = new WeakMap<object, Map<string, EstablishedFact | Decision>>();

export function itemsById(cso: GraphItems): Map<string, EstablishedFact | Decision> {
  let map = byId.get(cso);
  if (!map) {
    map = new Map();
    for (const f of cso.established_facts) map.set(f.fact_id, f);
    for (const d of cso.decisions) map.set(d.decision_id, d);
    byId.set(cso, map);
  }
  return map;
}

/** `itemsById` when every id of the CSO is used once (as a checked CSO's are); else null. */
export function uniqueItemsById(cso: GraphItems): Map<string, EstablishedFact | Decision> | null {
  const all = itemsById(cso);
  return all.size === cso.established_facts.length + cso.decisions.length ? all : null;
}

/**
 * How `items` differ from the prior's, when the caller built them and knows: the step then looks
 * at what changed only, not at every item. The caller vouches that every id is used once, and
 * that a fresh item under a prior id is of that item's kind.
 */
export interface KnownChange {
  /** The items that are not the prior's objects, in list order. */
  readonly fresh: GraphStep['fresh'];
  /** Ids of the prior's items that `items` do not hold, in the prior's order (facts first). */
  readonly gone: readonly string[];
  /** Whether to make the items by id (`GraphStep.byId`; null otherwise): a CSO to seal needs it. */
  readonly byId: boolean;
}

interface StepOptions {
  readonly levels?: boolean;
  readonly index?: boolean;
  /** What changed, when known: see {@link KnownChange}. */
  readonly known?: KnownChange;
}

/**
 * The normal-form graph of `items` plus `explicit` edges, from `prior`'s (null when the prior's
 * graph is not in normal form: the caller normalises from scratch). Costs the items (a look-up
 * each; nothing per item when the change is `known`) plus the edges of what changed.
 */
export function stepGraph(
  prior: GraphSource,
  items: GraphItems,
  explicit: readonly DependencyEdge[],
  options: StepOptions & { readonly index: false },
): (GraphStep & { readonly index: null }) | null;
export function stepGraph(
  prior: GraphSource,
  items: GraphItems,
  explicit: readonly DependencyEdge[],
  options?: StepOptions & { readonly index?: true },
): IndexedStep | null;
export function stepGraph(
  prior: GraphSource,
  items: GraphItems,
  explicit: readonly DependencyEdge[],
  options: StepOptions = {},
): GraphStep | null {
  const shape = graphShape(prior);
  if (!shape.normal) return null;
  const before = itemsById(prior);
  const { touched, fresh, gone, itemOf, byId } = options.known
    ? knownItems(before, items, options.known)
    : walkItems(before, items);
  const was = new Set(shape.explicit.map(edgeKey));
  const is = new Set(explicit.map(edgeKey));
  for (const e of shape.explicit) if (!is.has(edgeKey(e))) touched.add(e.dependent);
  for (const e of explicit) if (!was.has(edgeKey(e))) touched.add(e.dependent);
  const explicitBy = new Map<string, string[]>();
  for (const e of explicit) {
    const list = explicitBy.get(e.dependent);
    if (list) list.push(e.depends_on);
    else explicitBy.set(e.dependent, [e.depends_on]);
  }

  const old = prior.dependency_graph;
  // The new graph in pieces: runs of the prior's edges between touched ids, copied as slices (a
  // window touches a few dozen ids of thousands), and the touched ids' edges between them.
  const pieces: DependencyEdge[][] = [];
  let graph: DependencyEdge[] = [];
  const keep = (from: number, to: number) => {
    if (to <= from) return;
    if (graph.length > 0) pieces.push(graph);
    pieces.push(old.slice(from, to));
    graph = [];
  };
  const removed: DependencyEdge[] = [];
  const added: DependencyEdge[] = [];
  let at = 0;
  for (const id of [...touched].sort(compareCodeUnits)) {
    const lo = lowerBound(old, id, at);
    keep(at, lo);
    let hi = lo;
    while (hi < old.length && old[hi]!.dependent === id) hi++;
    const item = itemOf(id);
    const on = [...(item ? impliedOf(item) : []), ...(explicitBy.get(id) ?? [])];
    const wanted = on.length < 2 ? on : [...new Set(on)].sort(compareCodeUnits);
    let i = lo;
    for (const depends_on of wanted) {
      while (i < hi && old[i]!.depends_on < depends_on) removed.push(old[i++]!);
      if (i < hi && old[i]!.depends_on === depends_on) graph.push(old[i++]!);
      else {
        const edge = { dependent: id, depends_on };
        graph.push(edge);
        added.push(edge);
      }
    }
    while (i < hi) removed.push(old[i++]!);
    at = hi;
  }
  keep(at, old.length);
  if (graph.length > 0) pieces.push(graph);
  graph = joined(pieces);
  const base = DependencyIndex.of(prior);
  let index: DependencyIndex | null = base;
  if (removed.length > 0 || added.length > 0) {
    if (options.index !== false) index = base.derive(removed, added, options);
    else {
      // A draft whose facts a window left out loses their edges here and gets them back in
      // verification: deriving its index (hundreds of lists copied, the layer folded) would be
      // thrown away, and the cycle check needs only what the added edges reach.
      const cycle = base.cycleAfter(removed, added);
      if (cycle) {
        throw cycleError(cycle);
      }
      index = null;
    }
  }
  return { graph, removed, added, gone, byId, fresh, index, explicit };
}

/** What a step needs of the items: the ids to look at, the fresh and gone, each id's item now. */
interface ItemsChange {
  readonly touched: Set<string>;
  readonly fresh: GraphStep['fresh'];
  readonly gone: readonly string[];
  readonly itemOf: (id: string) => EstablishedFact | Decision | undefined;
  readonly byId: Map<string, EstablishedFact | Decision> | null;
}

/** The change found by looking at every item (an id used twice: its last fact, else its first decision). */
function walkItems(
  before: Map<string, EstablishedFact | Decision>,
  items: GraphItems,
): ItemsChange {
  const touched = new Set<string>();
  const now = new Map<string, EstablishedFact | Decision>();
  const fresh = { facts: [] as EstablishedFact[], decisions: [] as Decision[] };
  for (const item of items.established_facts) {
    now.set(item.fact_id, item);
    if (before.get(item.fact_id) !== item) {
      touched.add(item.fact_id);
      fresh.facts.push(item);
    }
  }
  for (const item of items.decisions) {
    if (!now.has(item.decision_id)) now.set(item.decision_id, item);
    if (before.get(item.decision_id) !== item) {
      touched.add(item.decision_id);
      fresh.decisions.push(item);
    }
  }
  const gone: string[] = [];
  if (now.size !== before.size || touched.size > 0) {
    for (const id of before.keys()) {
      if (!now.has(id)) {
        touched.add(id);
        gone.push(id);
      }
    }
  }
  const unique = now.size === items.established_facts.length + items.decisions.length;
  return { touched, fresh, gone, itemOf: (id) => now.get(id), byId: unique ? now : null };
}

/** The change as the caller knows it: only the fresh and gone ids are looked at. */
function knownItems(
  before: Map<string, EstablishedFact | Decision>,
  items: GraphItems,
  known: KnownChange,
): ItemsChange {
  const touched = new Set<string>(known.gone);
  const freshById = new Map<string, EstablishedFact | Decision>();
  for (const f of known.fresh.facts) {
    touched.add(f.fact_id);
    freshById.set(f.fact_id, f);
  }
  for (const d of known.fresh.decisions) {
    touched.add(d.decision_id);
    freshById.set(d.decision_id, d);
  }
  const leaving = new Set(known.gone);
  const itemOf = (id: string) =>
    freshById.get(id) ?? (leaving.has(id) ? undefined : before.get(id));
  // Vouched for, and cheap to see as the map is made: one that lost an id to another is none.
  const byId = known.byId ? uniqueItemsById(items) : null;
  return { touched, fresh: known.fresh, gone: known.gone, itemOf, byId };
}

/**
 * What a CSO's lists hold beyond its prior's objects, as the step that built them found: the
 * prior, the lists themselves (by identity: a CSO spread with other lists is another state), the
 * items and edges that are not the prior's, and the items by id when every id is used once.
 */
export interface StepDelta {
  readonly prior: object;
  readonly lists: {
    readonly facts: readonly EstablishedFact[];
    readonly decisions: readonly Decision[];
    readonly graph: readonly DependencyEdge[];
  };
  readonly fresh: GraphStep['fresh'];
  readonly added: readonly DependencyEdge[];
  /** Ids of the prior's items the lists no longer hold. */
  readonly gone: readonly string[];
  /** Every item by id; null when an id is used twice. */
  readonly items: ReadonlyMap<string, EstablishedFact | Decision> | null;
}

const deltas = new WeakMap<object, StepDelta>();

/** The delta recorded for `cso` when its lists are still the ones the step built, else undefined. */
export function stepDelta(cso: GraphSource): StepDelta | undefined {
  const delta = deltas.get(cso);
  if (
    !delta ||
    delta.lists.facts !== cso.established_facts ||
    delta.lists.decisions !== cso.decisions ||
    delta.lists.graph !== cso.dependency_graph
  ) {
    return undefined;
  }
  return delta;
}

/** States verification found whole (no dependency broken), with the checked prior they came from. */
const clean = new WeakMap<object, CognitiveStateObject>();

/** Records that `cso`, stepped from `prior`, has every dependency resting on something. */
export function markClean(cso: object, prior: CognitiveStateObject): void {
  clean.set(cso, prior);
}

/** The prior `cso` was stepped from, when verification found it whole. */
export function cleanPrior(cso: object): CognitiveStateObject | undefined {
  return clean.get(cso);
}

/**
 * Gives `to` — the same state as `from` in another object (sealed, or spread with fields that
 * imply no edges) — what was worked out for `from`'s graph; `items` when its items are `from`'s.
 */
export function carryStep(from: object, to: object, options: { items: boolean }): void {
  carryGraph(from, to);
  const shape = shapes.get(from);
  if (shape) shapes.set(to, shape);
  const map = byId.get(from);
  if (map && options.items) byId.set(to, map);
  const prior = clean.get(from);
  if (prior) clean.set(to, prior);
  const delta = deltas.get(from);
  if (delta) deltas.set(to, delta);
}

/**
 * Drops what ties `cso` to the state it was stepped from (what sealing it needed): a sealed CSO
 * kept for the next window must not keep every earlier one alive through it.
 */
export function forgetPrior(cso: object): void {
  clean.delete(cso);
  deltas.delete(cso);
}

/**
 * Records what {@link stepGraph} worked out (over `prior`) as the caches of the CSO that carries
 * its graph and items.
 */
export function rememberStep(cso: GraphSource, step: GraphStep, prior: object): void {
  deltas.set(cso, {
    prior,
    lists: {
      facts: cso.established_facts,
      decisions: cso.decisions,
      graph: cso.dependency_graph,
    },
    fresh: step.fresh,
    added: step.added,
    gone: step.gone,
    items: step.byId,
  });
  remember(cso, step.explicit);
  if (step.byId) byId.set(cso, step.byId);
  rememberEdges(cso, step.graph);
  if (step.index) DependencyIndex.remember(cso, step.index);
}

/** The pieces as one array (concatenated a bounded number at a time: a spread has a limit). */
function joined(pieces: readonly DependencyEdge[][]): DependencyEdge[] {
  if (pieces.length === 1) return pieces[0]!;
  const CHUNK = 1024;
  let out: DependencyEdge[] = [];
  for (let i = 0; i < pieces.length; i += CHUNK) out = out.concat(...pieces.slice(i, i + CHUNK));
  return out;
}

/** The first position at or after `from` whose dependent is not below `id`. */
function lowerBound(edges: readonly DependencyEdge[], id: string, from: number): number {
  let lo = from;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid]!.dependent < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
