// @ts-check
/**
 * A seeded relay state of a given size — facts, decisions with their rationale, and a dependency
 * graph whose every edge is implied by the items (a DERIVED fact rests on the fact it was derived
 * from; a decision on its `depends_on`), so the same state can be built through the public relay
 * (`completeWindow`, whose contributions cannot list bare edges) and in process — and the
 * contributions of the window the bench times.
 *
 * Contributions are capped at 256 items a list (`CONTRIBUTION_LIMITS.maxItems`), so the state is
 * built over several setup windows: each contributes its share of the items and restates none of
 * the earlier facts (verification re-injects them; nothing is lost).
 */
import { Rng } from '../../canon/lib/rng.js';

/** @typedef {{ fact_id: string, statement: string, provenance: 'CONVERSATION' | 'DERIVED', provenance_ref?: string }} GenFact */
/** @typedef {{ decision_id: string, choice: string, rationale: string, alternatives: string[], depends_on: string[] }} GenDecision */
/** @typedef {{ facts: number, decisions: number, edges: number, derived: number, perWindow: number }} StateSize */

/** The sizes of the target: 1,000 facts, 500 decisions, 5,000 edges. */
export const TARGET_SIZE = /** @type {StateSize} */ ({
  facts: 1_000,
  decisions: 500,
  edges: 5_000,
  derived: 400,
  perWindow: 250,
});

const SUBJECTS = [
  'the api gateway',
  'the billing job',
  'the etcd cluster',
  'the search index',
  'the cdn',
  'the auth service',
  'the queue',
  'the batch importer',
  'the mobile client',
  'the ledger',
];
const PROPERTIES = [
  'runs version',
  'has a p99 of',
  'is sharded into',
  'retains data for',
  'allows at most',
  'was migrated in sprint',
  'is owned by team',
  'costs per month about',
];

/** A fact statement unique by its number (statements are deduplicated when normalised). */
const statementOf = (/** @type {Rng} */ rng, /** @type {number} */ i) =>
  `${rng.pick(SUBJECTS)} ${rng.pick(PROPERTIES)} ${rng.int(2, 99)} (observation ${i})`;

/**
 * The items of a state of `size`, in dependency order: facts `f.NNNN` (the DERIVED ones resting on
 * an earlier fact), decisions `d.NNNN` on facts and earlier decisions, and the ground truth: the
 * edge list the items imply. Decision dependency counts are spread so the edges total exactly
 * `size.edges`.
 * @param {number} seed @param {StateSize} size
 */
export function generateState(seed, size = TARGET_SIZE) {
  const rng = new Rng(seed);
  /** @type {GenFact[]} */
  const facts = [];
  const derivedAt = new Set(
    rng.shuffle([...Array(size.facts).keys()].slice(1)).slice(0, size.derived),
  );
  for (let i = 0; i < size.facts; i++) {
    const fact_id = `f.${String(i).padStart(4, '0')}`;
    const statement = statementOf(rng, i);
    if (derivedAt.has(i)) {
      // Derived from a recent fact, so chains form (a derived fact may rest on a derived one).
      const from = facts[rng.int(Math.max(0, i - 40), i - 1)];
      facts.push({ fact_id, statement, provenance: 'DERIVED', provenance_ref: from?.fact_id });
    } else facts.push({ fact_id, statement, provenance: 'CONVERSATION' });
  }
  const decisionEdges = size.edges - size.derived;
  const base = Math.floor(decisionEdges / size.decisions);
  const extra = decisionEdges - base * size.decisions;
  const more = new Set(rng.shuffle([...Array(size.decisions).keys()]).slice(0, extra));
  /** @type {GenDecision[]} */
  const decisions = [];
  for (let i = 0; i < size.decisions; i++) {
    const decision_id = `d.${String(i).padStart(4, '0')}`;
    // The decision is taken in the window that contributes its facts' share: it may rest on the
    // facts known by then and on earlier decisions.
    const window = Math.floor(
      i / Math.ceil(size.decisions / Math.ceil(size.facts / size.perWindow)),
    );
    const known = Math.min(size.facts, (window + 1) * size.perWindow);
    const n = base + (more.has(i) ? 1 : 0);
    /** @type {Set<string>} */
    const on = new Set();
    while (on.size < n) {
      if (i > 0 && rng.chance(0.15))
        on.add(/** @type {GenDecision} */ (decisions[rng.int(0, i - 1)]).decision_id);
      else on.add(/** @type {GenFact} */ (facts[rng.int(0, known - 1)]).fact_id);
    }
    decisions.push({
      decision_id,
      choice: `choose option ${rng.int(1, 9)} for ${rng.pick(SUBJECTS)} (decision ${i})`,
      rationale: `because ${[...on].slice(0, 3).join(', ')} hold and the alternative breaks ${rng.pick(SUBJECTS)}`,
      alternatives: [`option ${rng.int(1, 9)}`],
      depends_on: [...on],
    });
  }
  /** @type {{ dependent: string, depends_on: string }[]} */
  const edges = [
    ...facts
      .filter((f) => f.provenance_ref)
      .map((f) => ({ dependent: f.fact_id, depends_on: /** @type {string} */ (f.provenance_ref) })),
    ...decisions.flatMap((d) =>
      d.depends_on.map((o) => ({ dependent: d.decision_id, depends_on: o })),
    ),
  ];
  return { facts, decisions, edges, size };
}

/** @typedef {ReturnType<typeof generateState>} GenState */

/**
 * The setup windows' contributions: window k adds the k-th share of facts and decisions (a decision
 * joins the window whose facts it needs). Each list stays within 256 items.
 * @param {GenState} state
 */
export function setupContributions(state) {
  const windows = Math.ceil(state.size.facts / state.size.perWindow);
  const per = Math.ceil(state.size.decisions / windows);
  return [...Array(windows).keys()].map((k) => ({
    facts: state.facts.slice(k * state.size.perWindow, (k + 1) * state.size.perWindow),
    decisions: state.decisions.slice(k * per, (k + 1) * per),
    open_questions: [],
    resolved_questions: [],
    constraints: k === 0 ? ['never restart the ledger during business hours'] : [],
    completed: [],
    invalidates: [],
    tool_results: [],
  }));
}

/** Every transitive dependent of `root` in the generator's edge list (ground truth). */
export function dependentsIn(
  /** @type {{ dependent: string, depends_on: string }[]} */ edges,
  /** @type {string} */ root,
) {
  /** @type {Map<string, string[]>} */
  const rdeps = new Map();
  for (const e of edges) rdeps.set(e.depends_on, [...(rdeps.get(e.depends_on) ?? []), e.dependent]);
  const seen = new Set([root]);
  const stack = [root];
  while (stack.length > 0) {
    for (const d of rdeps.get(/** @type {string} */ (stack.pop())) ?? []) {
      if (!seen.has(d)) {
        seen.add(d);
        stack.push(d);
      }
    }
  }
  seen.delete(root);
  return seen;
}

/**
 * The timed window's contribution over the built state: it restates `restate` of the prior facts
 * (by id and statement), leaves the others out (verification re-injects them: repair), adds
 * `newFacts` facts and `newDecisions` decisions, and supersedes one CONVERSATION fact that has
 * between 5 and 40 transitive dependents, some of them decisions (invalidation: the DERIVED facts on
 * it leave, the decisions on it are flagged). Returns the contribution and what the generator
 * expects of it.
 * @param {GenState} state @param {{ restate: number, newFacts: number, newDecisions: number, seed: number }} o
 */
export function windowContribution(state, o) {
  const rng = new Rng(o.seed);
  const decisionIds = new Set(state.decisions.map((d) => d.decision_id));
  let target = null;
  /** @type {Set<string>} */
  let closure = new Set();
  for (const f of rng.shuffle(state.facts)) {
    if (f.provenance !== 'CONVERSATION') continue;
    const c = dependentsIn(state.edges, f.fact_id);
    const ds = [...c].filter((id) => decisionIds.has(id)).length;
    if (c.size >= 5 && c.size <= 40 && ds >= 2 && ds < c.size) {
      target = f;
      closure = c;
      break;
    }
  }
  if (!target) throw new Error('no fact to supersede of the wanted shape');
  const leaving = new Set([target.fact_id, ...closure]);
  const staying = state.facts.filter((f) => !leaving.has(f.fact_id));
  const restated = rng.shuffle(staying).slice(0, o.restate);
  const restatedIds = new Set(restated.map((f) => f.fact_id));
  const dropped = staying.filter((f) => !restatedIds.has(f.fact_id)).map((f) => f.fact_id);
  const facts = [
    ...restated.map((f) => ({
      fact_id: f.fact_id,
      statement: f.statement,
      provenance: f.provenance,
      ...(f.provenance_ref ? { provenance_ref: f.provenance_ref } : {}),
    })),
    ...[...Array(o.newFacts).keys()].map((i) => ({
      fact_id: `fn.${i}`,
      statement: `${rng.pick(SUBJECTS)} ${rng.pick(PROPERTIES)} ${rng.int(2, 99)} (new observation ${i})`,
      provenance: 'CONVERSATION',
    })),
    {
      fact_id: 'fn.super',
      statement: `${target.statement} — corrected: it was misread`,
      provenance: 'CONVERSATION',
      supersedes: [target.fact_id],
    },
  ];
  const stayingIds = staying.map((f) => f.fact_id);
  const decisions = [...Array(o.newDecisions).keys()].map((i) => ({
    decision_id: `dn.${i}`,
    choice: `adopt plan ${i} for ${rng.pick(SUBJECTS)}`,
    rationale: `the new observations and ${rng.pick(stayingIds)} make plan ${i} the cheapest safe one`,
    alternatives: ['wait a sprint'],
    depends_on: [...new Set([...Array(5).keys()].map(() => rng.pick(stayingIds)))],
  }));
  return {
    contribution: {
      facts,
      decisions,
      open_questions: ['does the corrected figure change the rollout date?'],
      resolved_questions: [],
      constraints: [],
      completed: [],
      invalidates: [],
      tool_results: [],
    },
    expect: {
      superseded: target.fact_id,
      leaving: [...closure].filter((id) => !decisionIds.has(id)),
      flagged: [...closure].filter((id) => decisionIds.has(id)),
      dropped,
    },
  };
}
