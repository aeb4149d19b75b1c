// @ts-check
/**
 * A seeded reasoning graph of a given number of edges, shaped like the graphs a long relay session
 * builds: many small topics (a premise, what is derived from it, the decisions taken on those, in
 * five layers), a few hub facts many items rest on ("the deployment is etcd v3.5"), and rare links
 * between nearby topics. Every edge points from a later node to an earlier one (generation order is
 * a topological order), so the graph is acyclic by construction.
 */
import { Rng } from '../../canon/lib/rng.js';

/** @typedef {{ dependent: string, depends_on: string }} Edge */
/** @typedef {'hub' | 'layer 0' | 'layer 1' | 'layer 2' | 'layer 3' | 'layer 4'} NodeKind */

const LAYERS = 5;
const PER_LAYER = 8;
const HUBS = 50;
/** A node also rests on a hub with this chance. */
const HUB_CHANCE = 0.01;
/** A node also rests on a node of one of the previous NEAR topics with this chance. */
const CROSS_CHANCE = 0.02;
const NEAR = 50;

/**
 * Generates topics until the graph holds exactly `edgeCount` edges (the last node may get fewer
 * dependencies than drawn). Returns the nodes in generation order with their kind, and the edges.
 * @param {number} seed @param {number} edgeCount
 */
export function layeredDag(seed, edgeCount) {
  const rng = new Rng(seed);
  /** @type {{ id: string, kind: NodeKind }[]} */
  const nodes = [];
  /** @type {Edge[]} */
  const edges = [];
  /** @type {string[][][]} topic → layer → ids */
  const topics = [];
  const hubs = [];
  for (let h = 0; h < HUBS; h++) {
    hubs.push(`hub${h}`);
    nodes.push({ id: `hub${h}`, kind: 'hub' });
  }
  const full = () => edges.length >= edgeCount;
  for (let t = 0; !full(); t++) {
    /** @type {string[][]} */
    const layers = [];
    topics.push(layers);
    for (let l = 0; l < LAYERS && !full(); l++) {
      const layer = [];
      layers.push(layer);
      for (let k = 0; k < PER_LAYER && !full(); k++) {
        const id = `t${t}.${l}.${k}`;
        layer.push(id);
        nodes.push({ id, kind: /** @type {NodeKind} */ (`layer ${l}`) });
        /** @type {Set<string>} */
        const on = new Set();
        if (l > 0) {
          // 1–4 premises in the topic, mostly from the layer just before.
          const n = rng.int(1, 4);
          for (let i = 0; i < n; i++) {
            const from = rng.chance(0.7) ? l - 1 : rng.int(0, l - 1);
            on.add(rng.pick(/** @type {string[]} */ (layers[from])));
          }
        }
        if (rng.chance(HUB_CHANCE)) on.add(rng.pick(hubs));
        if (t > 0 && rng.chance(CROSS_CHANCE)) {
          const other = /** @type {string[][]} */ (topics[rng.int(Math.max(0, t - NEAR), t - 1)]);
          on.add(rng.pick(rng.pick(other.filter((x) => x.length > 0))));
        }
        for (const depends_on of on) {
          if (full()) break;
          edges.push({ dependent: id, depends_on });
        }
      }
    }
  }
  return { nodes, edges };
}

/**
 * Ground truth: every transitive dependent of `root`, by one sweep over the nodes in generation
 * (topological) order — a node is affected when something it rests on is the root or affected. A
 * different algorithm from the breadth-first walks under test, over the generator's own lists.
 * @param {{ id: string }[]} nodes @param {Map<string, string[]>} dependencies @param {string} root
 */
export function dependentsBySweep(nodes, dependencies, root) {
  /** @type {Set<string>} */
  const affected = new Set();
  for (const { id } of nodes) {
    if (id === root) continue;
    for (const dep of dependencies.get(id) ?? []) {
      if (dep === root || affected.has(dep)) {
        affected.add(id);
        break;
      }
    }
  }
  return affected;
}

/** What each node rests on, from an edge list. @param {Edge[]} edges */
export function dependenciesOf(edges) {
  /** @type {Map<string, string[]>} */
  const map = new Map();
  for (const e of edges) {
    const list = map.get(e.dependent);
    if (list) list.push(e.depends_on);
    else map.set(e.dependent, [e.depends_on]);
  }
  return map;
}
