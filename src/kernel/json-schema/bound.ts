import { addInto, COMPONENTS, type Coefficients, maxInto, NODE_STEPS, ONE, zero } from './cost.js';
import type { Compiled, SchemaNode, Slot } from './types.js';

/**
 * Static cost bounds of a compiled schema, in the units of cost.ts. Two questions, answered from
 * the schema alone:
 * - what applying a schema costs at ONE instance location, with everything it applies in place
 *   (allOf, anyOf, oneOf, not, if/then/else, $ref, dependentSchemas): `here`. Nested in-place
 *   applicators multiply, so a small schema can reach 2^n; compileConstraints refuses a schema whose
 *   fixed part passes the budget.
 * - a cost vector bounding every location of any instance: `perLocation`. The cost of a whole
 *   evaluation is then at most its dot product with the instance's measures (stats.ts).
 */

/** A schema (`label#pointer`) and the fixed steps of applying it at one location. */
export interface FanOut {
  readonly steps: number;
  readonly path: string;
}

const leaf = (): Coefficients => {
  const cost = zero();
  cost[ONE] = NODE_STEPS;
  return cost;
};
const BOOLEAN = leaf();

/**
 * `here` for every schema node: its own cost plus that of every schema it applies in place, counted
 * as many times as it is applied. The in-place graph is acyclic (cycles.ts refuses the rest), so an
 * iterative post-order computes it once per node.
 */
export function inPlaceCosts(nodes: Iterable<SchemaNode>): Map<SchemaNode, Coefficients> {
  const done = new Map<SchemaNode, Coefficients>();
  for (const start of nodes) {
    if (done.has(start)) continue;
    const stack: [SchemaNode, number][] = [[start, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [node, next] = top;
      if (next < node.inPlace.length) {
        top[1]++;
        const target = node.inPlace[next]!;
        if (typeof target !== 'boolean' && !done.has(target)) stack.push([target, 0]);
        continue;
      }
      stack.pop();
      if (done.has(node)) continue;
      const total = [...node.cost];
      for (const target of node.inPlace)
        addInto(total, typeof target === 'boolean' ? BOOLEAN : done.get(target)!);
      done.set(node, total);
    }
  }
  return done;
}

/** Values beyond this are as good as infinite for a budget of ~10^6 steps. */
const CAP = 2 ** 40;
/** Rounds of iteration within one recursive component before it is declared divergent. */
const MAX_ROUNDS = 32;

const KINDS = 3; // a child reached as a property value, an array item, or a property name

interface State {
  here: Coefficients;
  /** By kind of the first step down: the worst deeper location. */
  below: Coefficients[];
  bound: Coefficients;
}

function boundOf(target: Compiled, states: Map<SchemaNode, State>): Coefficients {
  return typeof target === 'boolean' ? BOOLEAN : states.get(target)!.bound;
}

function hereOf(target: Compiled, states: Map<SchemaNode, State>): Coefficients {
  return typeof target === 'boolean' ? BOOLEAN : states.get(target)!.here;
}

// Slot → [kind of child (0 property value, 1 item, 2 property name), alone (one of its kind applies)].
const SLOTS: Readonly<Record<Slot, readonly [number, boolean]>> = {
  property: [0, true],
  additional: [0, true],
  pattern: [0, false],
  unevaluatedProperty: [0, false],
  prefix: [1, true],
  items: [1, true],
  contains: [1, false],
  unevaluatedItem: [1, false],
  name: [2, false],
};

/** What one child of each kind may get from the node's own child applicators. */
function slots(node: SchemaNode, states: Map<SchemaNode, State>): Coefficients[] {
  const summed = [zero(), zero(), zero()];
  if (node.children.length === 0) return summed;
  const exclusive = [zero(), zero()]; // property/additional, prefix/items: one of them applies
  for (const { slot, schema } of node.children) {
    const [kind, alone] = SLOTS[slot];
    // A property name is a string: it has no children, so what applies in place is all it gets.
    const cost = kind === 2 ? hereOf(schema, states) : boundOf(schema, states);
    if (alone) maxInto(exclusive[kind]!, cost);
    else addInto(summed[kind]!, cost);
  }
  addInto(summed[0]!, exclusive[0]!);
  addInto(summed[1]!, exclusive[1]!);
  return summed;
}

/** Recomputes a node's `below` and `bound`; true when they changed. */
function update(node: SchemaNode, states: Map<SchemaNode, State>): boolean {
  const state = states.get(node)!;
  const below = slots(node, states);
  for (const target of node.inPlace) {
    if (typeof target === 'boolean') continue;
    const inner = states.get(target)!.below;
    for (let k = 0; k < KINDS; k++) addInto(below[k]!, inner[k]!);
  }
  const bound = [...state.here];
  for (const vector of below) maxInto(bound, vector);
  for (let i = 0; i < COMPONENTS; i++) if (bound[i]! > CAP) bound[i] = Infinity;
  let changed = false;
  for (let i = 0; i < COMPONENTS; i++) {
    if (bound[i] !== state.bound[i]) changed = true;
    for (let k = 0; k < KINDS; k++) {
      if (below[k]![i]! > CAP) below[k]![i] = Infinity;
      if (below[k]![i] !== state.below[k]![i]) changed = true;
    }
  }
  state.below = below;
  state.bound = bound;
  return changed;
}

function successors(node: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const target of node.inPlace) if (typeof target !== 'boolean') out.push(target);
  for (const { schema } of node.children) if (typeof schema !== 'boolean') out.push(schema);
  return out;
}

/** Strongly connected components of the schema graph, each after every component it reaches. */
function components(root: SchemaNode): SchemaNode[][] {
  const index = new Map<SchemaNode, number>();
  const low = new Map<SchemaNode, number>();
  const onStack = new Set<SchemaNode>();
  const stack: SchemaNode[] = [];
  const out: SchemaNode[][] = [];
  const work: [SchemaNode, SchemaNode[], number][] = [[root, successors(root), 0]];
  index.set(root, 0);
  low.set(root, 0);
  stack.push(root);
  onStack.add(root);
  let counter = 1;
  while (work.length > 0) {
    const frame = work[work.length - 1]!;
    const [node, next, i] = frame;
    if (i < next.length) {
      frame[2]++;
      const target = next[i]!;
      if (!index.has(target)) {
        index.set(target, counter);
        low.set(target, counter++);
        stack.push(target);
        onStack.add(target);
        work.push([target, successors(target), 0]);
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
      continue;
    }
    work.pop();
    const parent = work[work.length - 1];
    if (parent !== undefined) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
    if (low.get(node) !== index.get(node)) continue;
    const component: SchemaNode[] = [];
    let member: SchemaNode;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    out.push(component);
  }
  return out;
}

/**
 * A cost vector bounding what any single location of any instance may cost, or null when the
 * schema has a keyword no static bound covers (a dynamic `$ref`). Recursion that multiplies (a
 * schema reaching itself twice for the same child) gives infinite components.
 */
export function perLocationBound(
  root: Compiled,
  here: Map<SchemaNode, Coefficients>,
): Coefficients | null {
  if (typeof root === 'boolean') return BOOLEAN;
  const states = new Map<SchemaNode, State>();
  for (const component of components(root)) {
    for (const node of component) {
      if (node.unbounded) return null;
      const own = here.get(node)!;
      states.set(node, {
        here: own,
        below: [zero(), zero(), zero()],
        bound: [...own],
      });
    }
    const members = new Set(component);
    const recursive =
      component.length > 1 || successors(component[0]!).some((next) => members.has(next));
    if (!recursive) {
      update(component[0]!, states);
      continue;
    }
    let settled = false;
    for (let round = 0; round < MAX_ROUNDS && !settled; round++) {
      settled = true;
      for (const node of component) if (update(node, states)) settled = false;
    }
    if (!settled) for (const node of component) states.get(node)!.bound.fill(Infinity);
  }
  return states.get(root)!.bound;
}
