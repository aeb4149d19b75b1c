// @ts-check
/**
 * Cascade scenarios: a fact that moves, decisions layered on it down to an artifact (depth 1–5),
 * diamonds (a decision resting on two decisions that both rest on the fact), a branch resting on a
 * fact that never moves, and sometimes a direct dependent revised against the new fact, which clears
 * it but not what rests on it. The truth is the generator's own graph: each edge records the version
 * of the dependency it was made against, and an item needs revision exactly when one of its
 * dependencies has moved since, or needs revision itself.
 */
import { Script } from './script.js';
import { ARTIFACT_TITLES, DECISION_TITLES, FACT_TITLES, REASONS } from './vocab.js';

/**
 * @typedef {object} Node
 * @property {string} id object or artifact id
 * @property {string} title
 * @property {'fact' | 'decision' | 'artifact'} type
 * @property {number} level distance from its root fact along the layering
 * @property {boolean} affected rests (transitively) on the fact that moves
 * @property {string[]} parents
 * @property {number} version
 * @property {string} value
 * @property {Map<string, number>} base parent id → the parent version it was made against
 */

/** `a`, `a and the b`, `a, the b and the c` @param {string[]} titles */
const list = (titles) =>
  titles.length < 2
    ? (titles[0] ?? '')
    : `${titles.slice(0, -1).join(', the ')} and the ${titles.at(-1)}`;

export const slug = (/** @type {string} */ title) => title.replaceAll(' ', '-');

/**
 * The needs-revision set the graph implies: an item whose dependency moved since it was made, or
 * whose dependency needs revision; with the shortest distance to a moved dependency.
 * @param {Map<string, Node>} nodes @returns {Map<string, number>} id → depth
 */
export function needsRevision(nodes) {
  /** @type {Map<string, number>} */
  const depth = new Map();
  let changed = true;
  while (changed) {
    changed = false;
    for (const n of nodes.values()) {
      for (const p of n.parents) {
        const parent = /** @type {Node} */ (nodes.get(p));
        const moved = parent.version !== n.base.get(p) ? 1 : Infinity;
        const through = depth.has(p) ? /** @type {number} */ (depth.get(p)) + 1 : Infinity;
        const d = Math.min(moved, through);
        if (d < (depth.get(n.id) ?? Infinity)) {
          depth.set(n.id, d);
          changed = true;
        }
      }
    }
  }
  return depth;
}

/** Every transitive dependent of `root` with its shortest distance. @param {Map<string, Node>} nodes @param {string} root */
export function dependentsOf(nodes, root) {
  /** @type {Map<string, number>} */
  const depth = new Map([[root, 0]]);
  const queue = [root];
  while (queue.length > 0) {
    const at = /** @type {string} */ (queue.shift());
    for (const n of nodes.values()) {
      if (n.parents.includes(at) && !depth.has(n.id)) {
        depth.set(n.id, /** @type {number} */ (depth.get(at)) + 1);
        queue.push(n.id);
      }
    }
  }
  depth.delete(root);
  return depth;
}

/** How the fact moves: a correction, a restore of its first value, a successor fact, a dispute. */
export const MOVES = /** @type {const} */ (['update', 'restore', 'supersede', 'dispute']);

/**
 * Writes one cascade scenario. @param {import('../rng.js').Rng} rng @param {number} maxDepth 1–5
 * @param {(typeof MOVES)[number]} how
 */
export function cascade(rng, maxDepth, how = 'update') {
  const s = new Script(rng);
  const facts = rng.shuffle(FACT_TITLES);
  const decisions = rng.shuffle(DECISION_TITLES);
  const artifacts = rng.shuffle(ARTIFACT_TITLES);
  /** @type {Map<string, Node>} */
  const nodes = new Map();
  const make = (
    /** @type {string} */ title,
    /** @type {Node['type']} */ type,
    /** @type {number} */ level,
    /** @type {boolean} */ affected,
    /** @type {string[]} */ parents,
  ) => {
    /** @type {Node} */
    const n = {
      id: slug(title),
      title,
      type,
      level,
      affected,
      parents,
      version: 0,
      value: '',
      base: new Map(),
    };
    nodes.set(n.id, n);
    return n;
  };
  const take = (/** @type {string[]} */ pool) => /** @type {string} */ (pool.pop());

  // The graph, layer by layer: parents only from the layer above, so depth = layer.
  const root = make(take(facts), 'fact', 0, true, []);
  const still = make(take(facts), 'fact', 0, false, []);
  /** @type {Node[][]} */
  const hit = [[root]];
  /** @type {Node[][]} */
  const calm = [[still]];
  let diamonds = 0;
  for (let level = 1; level <= maxDepth; level++) {
    const last = level === maxDepth;
    const above = /** @type {Node[]} */ (hit[level - 1]);
    const aboveCalm =
      /** @type {Node[]} */ (calm[level - 1]).length > 0
        ? /** @type {Node[]} */ (calm[level - 1])
        : [still];
    // Two affected nodes on the first layer of a deep cascade, so a diamond can close below.
    const count = level === 1 && maxDepth >= 2 ? 2 : rng.int(1, 2);
    /** @type {Node[]} */
    const layer = [];
    for (let i = 0; i < count; i++) {
      const parents =
        above.length >= 2 && (i === 0 || rng.chance(0.4))
          ? rng.shuffle(above).slice(0, 2)
          : [rng.pick(above)];
      if (parents.length === 2) diamonds++;
      // Sometimes an affected node also rests on the calm branch (still affected: one path moves).
      if (rng.chance(0.3)) parents.push(rng.pick(aboveCalm));
      const n = make(
        take(last ? artifacts : decisions),
        last ? 'artifact' : 'decision',
        level,
        true,
        parents.map((p) => p.id),
      );
      layer.push(n);
    }
    hit.push(layer);
    /** @type {Node[]} */
    const calmLayer = [];
    const calmCount = level === 1 ? rng.int(1, 2) : rng.int(0, 1);
    for (let i = 0; i < calmCount; i++)
      calmLayer.push(
        make(take(last ? artifacts : decisions), last ? 'artifact' : 'decision', level, false, [
          rng.pick(aboveCalm).id,
        ]),
      );
    calm.push(calmLayer);
  }

  const title = (/** @type {string} */ id) => /** @type {Node} */ (nodes.get(id)).title;
  const state = (/** @type {Node} */ n, /** @type {string} */ value) => {
    n.version++;
    n.value = value;
    n.base = new Map(n.parents.map((p) => [p, /** @type {Node} */ (nodes.get(p)).version]));
  };
  const order = [...nodes.values()].sort(
    (a, b) => a.level - b.level || Number(b.affected) - Number(a.affected),
  );
  let rootFirst = '';
  for (const n of order) {
    s.chatter(3);
    const value = s.value();
    const rests = list(n.parents.map(title));
    if (n.type === 'artifact') {
      s.add('builder', {
        kind: 'artifact',
        beat: 'artifact',
        artifact_id: n.id,
        title: n.title,
        depends_on: n.parents,
        text: `Built the ${n.title} from the ${rests}.`,
      });
    } else {
      const text =
        n.type === 'fact'
          ? `Fact — ${n.title}: ${value}. Confirmed this week.`
          : `Decision — ${n.title}: ${value}. This rests on the ${rests}.`;
      s.add(n.type === 'fact' ? 'editor' : 'owner', {
        kind: 'note',
        beat: n.type === 'fact' ? 'establish-fact' : 'establish-decision',
        object_id: n.id,
        intent: 'create',
        candidate: { object_type: n.type, title: n.title, text },
        depends_on: n.parents,
        text,
      });
    }
    state(n, value);
    if (n === root) rootFirst = value;
    if (n === root && how === 'restore') {
      // The fact is corrected once before anything rests on it, so there is a first value to restore.
      s.chatter(2);
      const second = s.value();
      const text = `Correction — ${root.title}: ${second} from now on, not ${value}.`;
      s.add('owner', {
        kind: 'note',
        beat: 'establish-fact',
        object_id: root.id,
        intent: 'update',
        candidate: { object_type: 'fact', title: root.title, text },
        depends_on: [],
        text,
      });
      state(root, second);
    }
  }
  s.chatter(6);

  // The root moves: everything resting on it, at any depth, must be flagged in that commit.
  const expectedReceipt = dependentsOf(nodes, root.id);
  const first = root.value;
  const moved = s.value();
  /** @type {import('./script.js').FamilyEvent} */
  let move;
  if (how === 'restore') {
    const text = `Restored — ${root.title}: ${rootFirst} again, as it was first stated.`;
    move = s.add('owner', {
      kind: 'restore',
      beat: 'root-move',
      object_id: root.id,
      version: 1,
      text,
    });
    state(root, rootFirst);
  } else if (how === 'supersede') {
    // A successor fact replaces the root: what rested on the root rests on a superseded object.
    const successor = make(take(facts), 'fact', 0, false, []);
    const text = `Fact — ${successor.title}: ${moved}. It replaces the ${root.title}.`;
    move = s.add('owner', {
      kind: 'note',
      beat: 'root-move',
      object_id: successor.id,
      intent: 'supersede',
      supersedes: [root.id],
      candidate: { object_type: 'fact', title: successor.title, text },
      depends_on: [],
      text,
    });
    state(successor, moved);
    root.version++;
  } else if (how === 'dispute') {
    const text = `I dispute the ${root.title}: it should be ${moved}, because ${rng.pick(REASONS)}.`;
    move = s.add('peer', {
      kind: 'dispute',
      beat: 'root-move',
      object_id: root.id,
      candidate: { object_type: 'fact', title: root.title, text },
      text,
    });
    root.version++;
  } else {
    const text = `Correction — ${root.title}: ${moved} from now on, not ${first}.`;
    move = s.add('owner', {
      kind: 'note',
      beat: 'root-move',
      object_id: root.id,
      intent: 'update',
      candidate: { object_type: 'fact', title: root.title, text },
      depends_on: [],
      text,
    });
    state(root, moved);
  }
  s.chatter(4);

  // Sometimes a direct dependent is revised against the new fact: it is cleared, what rests on it is not.
  /** @type {string | null} */
  let revised = null;
  const direct = /** @type {Node[]} */ (hit[1]).filter((n) => n.type === 'decision');
  if (how !== 'supersede' && direct.length > 0 && rng.chance(0.5)) {
    const n = rng.pick(direct);
    const value = s.value();
    const text = `Revised — ${n.title}: ${value}. Re-checked against the ${list(n.parents.map(title))}.`;
    s.add('owner', {
      kind: 'note',
      beat: 'revise-dependent',
      object_id: n.id,
      intent: 'update',
      candidate: { object_type: 'decision', title: n.title, text },
      depends_on: n.parents,
      text,
    });
    state(n, value);
    revised = n.id;
    s.chatter(4);
  }

  const flagged = needsRevision(nodes);
  const kindOf = (/** @type {string} */ id) =>
    /** @type {Node} */ (nodes.get(id)).type === 'artifact' ? 'artifact' : 'note';
  const items = [...nodes.values()].filter((n) => n.parents.length > 0);
  return {
    events: s.events,
    truth: {
      max_depth: maxDepth,
      move: how,
      diamonds,
      root: root.id,
      move_event: move.id,
      revised,
      /** What the move's receipt must list: every transitive dependent at that moment. */
      receipt: [...expectedReceipt].map(([id, depth]) => ({ id, kind: kindOf(id), depth })),
      /** What needs revision at the end, with the shortest distance to a moved dependency. */
      needs_revision: [...flagged].map(([id, depth]) => ({ id, kind: kindOf(id), depth })),
      /** Every other item: must not be flagged. */
      unaffected: [...nodes.values()]
        .filter((n) => !flagged.has(n.id))
        .map((n) => ({ id: n.id, kind: kindOf(n.id) })),
      /** Every dependent item by id and title (the question names them). */
      items: items.map((n) => ({ id: n.id, kind: kindOf(n.id), title: n.title })),
      edges: [...nodes.values()].flatMap((n) =>
        n.parents.map((p) => ({ from: n.id, to: p, version: n.base.get(p) })),
      ),
    },
    question: `Which of these need revision after the latest changes: the ${items.map((n) => n.title).join(', the ')}?`,
  };
}
