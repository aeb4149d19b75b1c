import { CanonryError } from '../core/index.js';
import { wasChecked } from './cso-schema.js';
import {
  cycleError,
  DependencyIndex,
  type GraphItems,
  normaliseEdges,
  scratchIdSet,
  scratchIds,
} from './graph.js';
import {
  graphShape,
  type IndexedStep,
  type KnownChange,
  markClean,
  rememberStep,
  type StepDelta,
  stepDelta,
  stepGraph,
  uniqueItemsById,
} from './graph-delta.js';
import { CSO_LIMITS, UNCAPTURED_CONFIDENCE } from './limits.js';
import { draftPrior } from './merge.js';
import { normaliseStatement, statementKey } from './statement.js';
import type {
  CognitiveStateObject,
  DependencyEdge,
  EstablishedFact,
  UnsealedCso,
  Verification,
} from './types.js';

/**
 * §5 verification — what stands for SPEC-005's DPE check in canonry: computed from the prior CSO
 * (the ground truth of what was valid) and the draft alone, never from what the window claims.
 */
export interface VerifyOptions {
  /** Statements the window's text asserts that its contribution did not capture (§5.1 step 4). */
  readonly uncapturedClaims: readonly string[];
  /** Ids that validly left the state this window (`MergeResult.retired`): not re-injected. */
  readonly retired?: readonly string[];
}

/**
 * Verifies and repairs a draft (§5.1–5.2). Preservation is |valid prior facts present unchanged| /
 * |valid prior facts| (1 when there are none), measured before repair; every valid prior fact the
 * draft dropped or altered is re-injected exactly as the prior had it (`repaired`). Uncaptured
 * claims become CONVERSATION facts at {@link UNCAPTURED_CONFIDENCE}, unless a fact already states
 * them. The CSO is `verified` when, after repair, every edge rests on something in the state — a
 * decision flagged `needs_revision` may rest on what has left it — otherwise its gaps are in
 * `broken_dependencies` (item id → missing ids) and the relay must halt or re-generate.
 */
export function verifyCso(
  prior: CognitiveStateObject | null,
  draft: UnsealedCso,
  options: VerifyOptions,
): { cso: UnsealedCso; verification: Verification } {
  if (options.uncapturedClaims.length > CSO_LIMITS.uncapturedClaims) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `at most ${CSO_LIMITS.uncapturedClaims} uncaptured claims a window`,
    );
  }
  const retired = new Set(options.retired ?? []);
  const valid = (prior?.established_facts ?? []).filter((f) => !retired.has(f.fact_id));
  const drafted = prior ? draftChange(prior, draft, retired) : null;
  let repaired: string[];
  let facts: EstablishedFact[];
  if (drafted) {
    // The draft holds each valid prior fact as the prior's object or not at all: what it does not
    // hold is repaired, and its own facts follow the valid ones.
    repaired = drafted.repaired;
    facts = valid.concat(drafted.delta.fresh.facts);
  } else {
    const draftedFact = factLookup(draft);
    repaired = [];
    for (const f of valid) {
      const d = draftedFact(f.fact_id);
      if (!d || !sameFact(d, f)) repaired.push(f.fact_id);
    }
    const priorFact = prior ? factLookup(prior) : () => undefined;
    const isValid = (id: string) => priorFact(id) !== undefined && !retired.has(id);
    facts = [...valid];
    for (const f of draft.established_facts) if (!isValid(f.fact_id)) facts.push(f);
  }
  const preservation = valid.length === 0 ? 1 : (valid.length - repaired.length) / valid.length;

  const n = draft.window_number;
  // Every id of the state, worked out when something needs the set (the step's map stands for it).
  let idSet: Set<string> | undefined;
  const allIds = (): Set<string> => {
    if (!idSet) {
      idSet = new Set<string>();
      for (const f of facts) idSet.add(f.fact_id);
      for (const d of draft.decisions) idSet.add(d.decision_id);
    }
    return idSet;
  };
  const uncaptured: string[] = [];
  const claimedFacts: EstablishedFact[] = [];
  if (options.uncapturedClaims.length > 0) {
    const stated = new Set(facts.map((f) => statementKey(f)));
    let counter = 0;
    for (const claim of options.uncapturedClaims) {
      const key = normaliseStatement(claim);
      if (key === '' || stated.has(key)) continue;
      if (claim.length > CSO_LIMITS.statementChars) {
        throw new CanonryError(
          'INVALID_ARGUMENT',
          'an uncaptured claim is longer than a statement may be',
        );
      }
      const ids = allIds();
      let fact_id: string;
      do fact_id = `u${n}.${++counter}`;
      while (ids.has(fact_id));
      ids.add(fact_id);
      stated.add(key);
      const fact: EstablishedFact = {
        fact_id,
        statement: claim,
        provenance: 'CONVERSATION',
        provenance_ref: `window:${n}`,
        confidence: UNCAPTURED_CONFIDENCE,
        window_origin: n,
      };
      facts.push(fact);
      claimedFacts.push(fact);
      uncaptured.push(claim);
    }
  }

  const items = { established_facts: facts, decisions: draft.decisions };
  const flagged = new Set(
    draft.decisions.filter((d) => d.needs_revision).map((d) => d.decision_id),
  );
  const scratch = new Set(scratchIds(items));
  const base = draftPrior(draft);
  const step =
    base && base === prior && wasChecked(prior)
      ? stepFrom(prior, draft, items, allIds, drafted && knownAfterRepair(drafted, claimedFacts))
      : null;
  let dependency_graph: DependencyEdge[];
  let missing: Map<string, string[]>;
  if (step) {
    const byId = step.byId ?? allIds();
    const known = (id: string) => byId.has(id) || scratch.has(id);
    dependency_graph = step.graph;
    missing = missingAfter(prior!, step, known, flagged);
  } else {
    const ids = allIds();
    const known = (id: string) => ids.has(id) || scratch.has(id);
    dependency_graph = normaliseEdges(items, draft.dependency_graph).filter((e) =>
      ids.has(e.dependent),
    );
    missing = new Map<string, string[]>();
    for (const e of dependency_graph) {
      if (known(e.depends_on) || flagged.has(e.dependent)) continue;
      const list = missing.get(e.dependent);
      if (list) list.push(e.depends_on);
      else missing.set(e.dependent, [e.depends_on]);
    }
    const cycle = DependencyIndex.fromEdges(dependency_graph).findCycle();
    if (cycle) throw cycleError(cycle, 'the draft has a cycle');
  }
  const broken = Object.fromEntries(missing);
  const verified = missing.size === 0;
  const cso: UnsealedCso = { ...draft, established_facts: facts, dependency_graph, verified };
  if (step) {
    rememberStep(cso, step, prior!);
    if (verified) markClean(cso, prior!);
  }
  return {
    cso,
    verification: { preservation, repaired, broken_dependencies: broken, uncaptured, verified },
  };
}

/**
 * The repaired state's graph from the prior's, when the draft is `mergeContribution`'s over this
 * prior: the draft's extra edges are its prior's re-pointed, so the graph is the items' implied
 * edges and those. Null when the prior's graph is not in normal form.
 */
function stepFrom(
  prior: CognitiveStateObject,
  draft: UnsealedCso,
  items: GraphItems,
  ids: () => ReadonlySet<string>,
  known: KnownChange | null,
): IndexedStep | null {
  const listed = graphShape(draft).explicit;
  const explicit = listed.length === 0 ? listed : listed.filter((e) => ids().has(e.dependent));
  try {
    return stepGraph(prior, items, explicit, known ? { known } : {});
  } catch (err) {
    // The prior was checked, so the cycle the step names is the draft's own: said in its words.
    if (err instanceof CanonryError && err.code === 'DEPENDENCY_CYCLE') {
      const cycle = (err.details as { cycle?: readonly string[] } | undefined)?.cycle ?? [];
      throw cycleError(cycle, 'the draft has a cycle');
    }
    throw err;
  }
}

/**
 * The edges of the new graph that rest on nothing in the state (and whose dependent is not
 * flagged), in graph order. The prior was checked, so every edge of it rested on something or on a
 * flagged decision: only added edges, edges on what left, and edges of decisions whose flag went
 * can break.
 */
function missingAfter(
  prior: CognitiveStateObject,
  step: IndexedStep,
  known: (id: string) => boolean,
  flagged: ReadonlySet<string>,
): Map<string, string[]> {
  const candidates: DependencyEdge[] = [...step.added];
  const before = DependencyIndex.of(prior);
  const after = step.index;
  const priorFlagged: string[] = [];
  for (const d of prior.decisions) if (d.needs_revision) priorFlagged.push(d.decision_id);
  // The prior's nodes that are not in the state now: items that left, scratch ids no longer named,
  // and ids that were never in it — which, the prior being checked, only flagged decisions rest on.
  const unknown = new Set<string>();
  for (const id of step.gone) if (!known(id)) unknown.add(id);
  for (const id of scratchIdSet(prior)) if (!known(id)) unknown.add(id);
  for (const id of priorFlagged) {
    for (const dep of before.dependenciesOf(id)) if (!known(dep)) unknown.add(dep);
  }
  for (const id of unknown) {
    for (const dependent of after.dependentsOf(id)) {
      candidates.push({ dependent, depends_on: id });
    }
  }
  for (const id of priorFlagged) {
    if (flagged.has(id)) continue;
    for (const depends_on of after.dependenciesOf(id)) {
      candidates.push({ dependent: id, depends_on });
    }
  }
  candidates.sort((a, b) =>
    a.dependent < b.dependent
      ? -1
      : a.dependent > b.dependent
        ? 1
        : a.depends_on < b.depends_on
          ? -1
          : a.depends_on > b.depends_on
            ? 1
            : 0,
  );
  const missing = new Map<string, string[]>();
  let last: DependencyEdge | undefined;
  for (const e of candidates) {
    if (last && last.dependent === e.dependent && last.depends_on === e.depends_on) continue;
    last = e;
    if (known(e.depends_on) || flagged.has(e.dependent)) continue;
    const list = missing.get(e.dependent);
    if (list) list.push(e.depends_on);
    else missing.set(e.dependent, [e.depends_on]);
  }
  return missing;
}

/** A draft `mergeContribution` made over the prior, as the step that built it recorded it. */
interface DraftChange {
  readonly delta: StepDelta;
  /** The valid prior facts the draft does not hold (it put them back), in the prior's order. */
  readonly repaired: string[];
  /** The prior's other ids the draft does not hold: what left, in the prior's order. */
  readonly left: readonly string[];
}

/**
 * What the draft changed, when its step recorded it over this prior (its lists untouched since)
 * and it holds each prior fact as the prior's object or not at all: no new item under a prior
 * id of another kind or twice, no new fact under a prior id, no prior fact kept under a retired
 * id. Null otherwise (the draft is looked at item by item).
 */
function draftChange(
  prior: CognitiveStateObject,
  draft: UnsealedCso,
  retired: ReadonlySet<string>,
): DraftChange | null {
  const delta = stepDelta(draft);
  const priorItems = uniqueItemsById(prior);
  if (!delta || delta.prior !== prior || !priorItems) return null;
  const priorFact = (id: string) => {
    const item = priorItems.get(id);
    return item !== undefined && 'fact_id' in item;
  };
  const freshIds = new Set<string>();
  for (const f of delta.fresh.facts) {
    if (priorItems.has(f.fact_id)) return null;
    freshIds.add(f.fact_id);
  }
  for (const d of delta.fresh.decisions) {
    const was = priorItems.get(d.decision_id);
    if (was !== undefined && !('decision_id' in was)) return null;
    freshIds.add(d.decision_id);
  }
  if (freshIds.size !== delta.fresh.facts.length + delta.fresh.decisions.length) return null;
  const gone = new Set(delta.gone);
  for (const id of retired) if (priorFact(id) && !gone.has(id)) return null;
  const repaired: string[] = [];
  const left: string[] = [];
  for (const id of delta.gone) (priorFact(id) && !retired.has(id) ? repaired : left).push(id);
  return { delta, repaired, left };
}

/**
 * The repaired state's change from the prior, from the draft's: the valid facts it left out are
 * back as the prior's objects, uncaptured claims are fresh facts, the decisions are the draft's.
 */
function knownAfterRepair(
  drafted: DraftChange,
  uncaptured: readonly EstablishedFact[],
): KnownChange {
  const claimed = new Set(uncaptured.map((f) => f.fact_id));
  return {
    fresh: {
      facts: drafted.delta.fresh.facts.concat(uncaptured),
      decisions: drafted.delta.fresh.decisions,
    },
    gone: claimed.size === 0 ? drafted.left : drafted.left.filter((id) => !claimed.has(id)),
    byId: true,
  };
}

/**
 * A CSO's facts by id: through its own map (`itemsById`, kept with a CSO a step built) when every
 * id is used once; else a map of its facts (the last of an id, as a map of the list keeps).
 */
function factLookup(cso: GraphItems): (id: string) => EstablishedFact | undefined {
  const all = uniqueItemsById(cso);
  if (all) {
    return (id) => {
      const item = all.get(id);
      return item !== undefined && 'fact_id' in item ? item : undefined;
    };
  }
  const facts = new Map(cso.established_facts.map((f) => [f.fact_id, f]));
  return (id) => facts.get(id);
}

/** Whether two facts say the same, field by field (as their canonical forms would compare). */
function sameFact(a: EstablishedFact, b: EstablishedFact): boolean {
  return (
    a === b ||
    (a.fact_id === b.fact_id &&
      a.statement === b.statement &&
      a.provenance === b.provenance &&
      a.provenance_ref === b.provenance_ref &&
      a.confidence === b.confidence &&
      a.window_origin === b.window_origin &&
      a.result_hash === b.result_hash &&
      Object.keys(a).length === Object.keys(b).length)
  );
}
