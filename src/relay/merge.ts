import { CanonryError } from '../core/index.js';
import { csoId } from './cso-seal.js';
import { cycleError, DependencyIndex, normaliseEdges, scratchIdSet } from './graph.js';
import {
  type GraphStep,
  graphShape,
  rememberStep,
  stepGraph,
  uniqueItemsById,
} from './graph-delta.js';
import { isRelayId, MAX_REVISIONS } from './limits.js';
import { knownStatementKey, normaliseStatement, statementKey, uniqueTexts } from './statement.js';
import { statementIndexOf } from './statement-index.js';
import type {
  CognitiveStateObject,
  Contribution,
  Decision,
  DependencyEdge,
  EstablishedFact,
  GoalState,
  UnsealedCso,
} from './types.js';

/**
 * §5 and §7.2 `CSO.integrate`: one window's contribution merged into the state.
 *
 * The framing: a contribution's `facts` are the window's view of the established state — prior facts
 * it restates (by id, or by the same normalised statement) and new ones. A valid prior fact the
 * window neither restates nor supersedes or invalidates is DROPPED from the draft: that is the loss
 * §5 exists to catch, and {@link verifyCso} measures it (preservation) and re-injects the fact.
 * Decisions are the state's record of what was decided and are carried forward whole; a window
 * changes one only by revising it (§6.2).
 */

/** What a revision in a contribution was refused for, and which. */
export interface RefusedRevision {
  readonly decision_id: string;
  /** `max_revisions`: §6.3, escalate to a person; `not_revisable`; `unknown`: no such decision. */
  readonly reason: 'max_revisions' | 'not_revisable' | 'unknown';
}

export interface MergeContext {
  readonly session_id: string;
  readonly window_number: number;
  /** For window 1: the session genesis (`sessionGenesis`), the link window 1 rests on. */
  readonly genesis: string;
  /** The window contract the window ran under; `remaining` and `completion` are updated. */
  readonly goal_state: GoalState;
  /**
   * Candidate ids for new items: called until one is unused. Defaults to `f<window>.<n>` and
   * `d<window>.<n>`, deterministic.
   */
  readonly newId?: (kind: 'fact' | 'decision', n: number) => string;
  /** The session's revision bound (§6.3); {@link MAX_REVISIONS} by default. */
  readonly max_revisions?: number;
  /**
   * Ids the session used for items that have left the state (canon keeps a note of each): never
   * given to a new item. A contribution that names one for a new item is refused by the caller.
   */
  readonly used?: ReadonlySet<string>;
}

export interface MergeResult {
  /** The merged state, before verification and sealing (`verified` false until verified). */
  readonly draft: UnsealedCso;
  /** Ids of the facts and decisions this window added. */
  readonly added: readonly string[];
  /** Prior facts replaced by a new one, and prior decisions replaced by their revision. */
  readonly superseded: readonly string[];
  /** Prior facts and scratch ids invalidated, and every fact resting on them (they leave). */
  readonly invalidated: readonly string[];
  /** Decisions newly flagged `needs_revision`. */
  readonly flagged: readonly string[];
  /** Every id that validly left the state this window: what verification must not re-inject. */
  readonly retired: readonly string[];
  readonly refused: readonly RefusedRevision[];
  /** Ids the contribution named that are nowhere in the prior state (supersedes, invalidates). */
  readonly ignored: readonly string[];
}

/**
 * Merges `contribution` into `prior` (null for window 1). Deterministic: the same prior,
 * contribution and context give the same draft, byte for byte. See the module comment for what a
 * contribution's facts mean and `src/relay/README.md` for each rule.
 */
/** Each id a contribution names for an item (a fact, a decision, a tool result), with its field. */
export function namedIds(contribution: Contribution): Map<string, string> {
  const named = new Map<string, string>();
  for (const [i, f] of contribution.facts.entries()) {
    if (f.fact_id !== undefined) named.set(f.fact_id, `/facts/${i}/fact_id`);
  }
  for (const [i, d] of contribution.decisions.entries()) {
    if (d.decision_id !== undefined) named.set(d.decision_id, `/decisions/${i}/decision_id`);
  }
  for (const [i, t] of contribution.tool_results.entries()) {
    named.set(t.scratch_id, `/tool_results/${i}/scratch_id`);
  }
  return named;
}

export function mergeContribution(
  prior: CognitiveStateObject | null,
  contribution: Contribution,
  ctx: MergeContext,
): MergeResult {
  const n = ctx.window_number;
  const expected = prior ? prior.window_number + 1 : 1;
  if (n !== expected) {
    throw new CanonryError('INVALID_ARGUMENT', `window ${n} cannot follow ${expected - 1}`);
  }
  const priorFacts = prior?.established_facts ?? [];
  const priorDecisions = prior?.decisions ?? [];
  const index = prior ? DependencyIndex.of(prior) : DependencyIndex.fromEdges([]);
  const { fact: factOf, decision: decisionOf, unique: priorUnique } = priorItems(prior);
  const scratch = scratchIdSet(prior ?? EMPTY);

  const claimed = new Set<string>();
  const taken = (id: string) =>
    factOf(id) !== undefined ||
    decisionOf(id) !== undefined ||
    scratch.has(id) ||
    claimed.has(id) ||
    ctx.used?.has(id) === true;
  // The ids the contribution names itself are never handed to an item that came without one: its
  // references (depends_on, a TOOL fact's scratch id) would then point at the wrong item.
  const named = namedIds(contribution);
  // A TOOL item rests on a tool result: one this window lists, or one the state already holds.
  // Canon keeps each as a note, so a reference to neither could only fail at the commit.
  const toolRef = (provenance: string | undefined, ref: string | undefined, field: string) => {
    if (provenance !== 'TOOL' || ref === undefined || scratch.has(ref)) return;
    if (contribution.tool_results.some((t) => t.scratch_id === ref)) return;
    throw new CanonryError(
      'MODEL_OUTPUT_INVALID',
      `${field} names no tool result: ${ref} is neither in the state nor in tool_results`,
      { field },
    );
  };
  for (const [i, f] of contribution.facts.entries()) {
    toolRef(f.provenance, f.provenance_ref, `/facts/${i}/provenance_ref`);
  }
  for (const [i, d] of contribution.decisions.entries()) {
    toolRef(d.provenance, d.provenance_ref, `/decisions/${i}/provenance_ref`);
  }
  const counters = { fact: 0, decision: 0 };
  const fresh = (kind: 'fact' | 'decision', proposed?: string): string => {
    if (proposed !== undefined && isRelayId(proposed) && !taken(proposed)) {
      claimed.add(proposed);
      return proposed;
    }
    for (;;) {
      counters[kind]++;
      const id =
        ctx.newId?.(kind, counters[kind]) ?? `${kind === 'fact' ? 'f' : 'd'}${n}.${counters[kind]}`;
      if (isRelayId(id) && !taken(id) && !named.has(id)) {
        claimed.add(id);
        return id;
      }
    }
  };

  // 1. What leaves: superseded and invalidated ids, refreshed tool results, and what rests on them.
  const ignored: string[] = [];
  const superseded = new Set<string>();
  const roots = new Set<string>();
  for (const f of contribution.facts) {
    for (const id of f.supersedes ?? []) {
      if (factOf(id) !== undefined) superseded.add(id);
      else ignored.push(id);
    }
  }
  for (const id of contribution.invalidates) {
    if (factOf(id) !== undefined || decisionOf(id) !== undefined || scratch.has(id)) roots.add(id);
    else ignored.push(id);
  }
  const freshTools = contribution.tool_results.filter((t) => {
    const stating = priorFacts.filter(
      (f) => f.provenance === 'TOOL' && f.provenance_ref === t.scratch_id,
    );
    if (stating.some((f) => f.result_hash !== undefined && f.result_hash !== t.result_hash)) {
      roots.add(t.scratch_id); // §8.3: refreshed with another value
      return true;
    }
    return stating.length === 0;
  });
  const affected = index.invalidate([...superseded, ...roots]);
  const gone = new Set<string>(superseded);
  const invalidated: string[] = [];
  const flagged = new Set<string>();
  for (const id of [...roots, ...affected.map((a) => a.id)]) {
    if (factOf(id) !== undefined && !gone.has(id)) {
      gone.add(id);
      invalidated.push(id);
    } else if (decisionOf(id) !== undefined) flagged.add(id);
    else if (scratch.has(id) && !invalidated.includes(id)) invalidated.push(id);
  }

  // 2. Facts: the window's view of the prior state, then its new facts and tool results.
  const restated = new Set<string>();
  // The fact a statement restates: the first prior fact of its normal form still in the state (the
  // prior's index, made once per CSO, is looked up only for a fact not restated word for word),
  // else the first new fact of this window stating it.
  const leaving = (id: string) => gone.has(id);
  const newForms = new Map<string, string>();
  const stating = (key: string): string | undefined =>
    (prior ? statementIndexOf(prior).first(key, leaving) : undefined) ?? newForms.get(key);
  if (contribution.tool_results.length > 0) {
    for (const f of priorFacts) {
      if (f.provenance === 'TOOL' && !gone.has(f.fact_id)) {
        if (contribution.tool_results.some((t) => t.scratch_id === f.provenance_ref)) {
          restated.add(f.fact_id);
        }
      }
    }
  }
  const newFacts: EstablishedFact[] = [];
  const added: string[] = [];
  for (const c of contribution.facts) {
    const known = c.fact_id === undefined ? undefined : factOf(c.fact_id);
    // The same id with the very same statement is a restatement, whatever the normal form.
    if (known && !gone.has(known.fact_id) && known.statement === c.statement) {
      restated.add(known.fact_id);
      continue;
    }
    const key = normaliseStatement(c.statement);
    if (known && !gone.has(known.fact_id) && statementKey(known) === key) {
      restated.add(known.fact_id);
      continue;
    }
    const same = stating(key);
    if (same !== undefined) {
      if (factOf(same) !== undefined) restated.add(same);
      continue;
    }
    let provenance = c.provenance ?? 'CONVERSATION';
    let provenance_ref = c.provenance_ref ?? `window:${n}`;
    if ((provenance === 'TOOL' || provenance === 'DERIVED') && c.provenance_ref === undefined) {
      provenance = 'CONVERSATION';
      provenance_ref = `window:${n}`;
    }
    if (provenance === 'DERIVED' && gone.has(provenance_ref)) {
      ignored.push(c.fact_id ?? c.statement.slice(0, 64)); // rests on what this window retired
      continue;
    }
    const fact: EstablishedFact = {
      fact_id: fresh('fact', c.fact_id),
      statement: c.statement,
      provenance,
      provenance_ref,
      confidence: c.confidence ?? 1,
      window_origin: n,
    };
    newForms.set(key, fact.fact_id);
    knownStatementKey(fact, key);
    newFacts.push(fact);
    added.push(fact.fact_id);
  }
  for (const t of freshTools) {
    const fact: EstablishedFact = {
      fact_id: fresh('fact'),
      statement: t.summary,
      provenance: 'TOOL',
      provenance_ref: t.scratch_id,
      confidence: 1,
      window_origin: n,
      result_hash: t.result_hash,
    };
    newFacts.push(fact);
    added.push(fact.fact_id);
  }
  const facts: EstablishedFact[] = [];
  // What the draft does not hold of the prior, in its order (the step needs no walk of the lists).
  const left: string[] = [];
  for (const f of priorFacts) {
    if (restated.has(f.fact_id) && !gone.has(f.fact_id)) facts.push(f);
    else left.push(f.fact_id);
  }
  for (const f of newFacts) facts.push(f);

  // 3. Decisions: carried forward; revisions replace what they revise; new ones added.
  const repoint = new Map<string, string>();
  const refused: RefusedRevision[] = [];
  const newDecisions: Decision[] = [];
  for (const c of contribution.decisions) {
    if (
      c.decision_id !== undefined &&
      decisionOf(c.decision_id) !== undefined &&
      c.revises === undefined
    ) {
      continue; // a restatement: the prior decision is the record
    }
    let revisions: number | undefined;
    if (c.revises !== undefined) {
      const target = decisionOf(c.revises);
      const reason: RefusedRevision['reason'] | null =
        !target || repoint.has(c.revises)
          ? 'unknown'
          : !target.revisable
            ? 'not_revisable'
            : (target.revisions ?? 0) >= (ctx.max_revisions ?? MAX_REVISIONS)
              ? 'max_revisions'
              : null;
      if (reason) {
        refused.push({ decision_id: c.revises, reason });
        continue;
      }
      revisions = (target!.revisions ?? 0) + 1;
    }
    const decision_id = fresh('decision', c.decision_id);
    if (c.revises !== undefined) repoint.set(c.revises, decision_id);
    const d: Decision = {
      decision_id,
      choice: c.choice,
      rationale: c.rationale,
      alternatives: c.alternatives ?? [],
      depends_on: [...new Set(c.depends_on ?? [])],
      revisable: c.revisable ?? true,
      window_origin: n,
      ...(c.provenance !== undefined && c.provenance_ref !== undefined
        ? { provenance: c.provenance, provenance_ref: c.provenance_ref }
        : {}),
      ...(c.revises !== undefined ? { revises: c.revises, revisions } : {}),
    };
    newDecisions.push(d);
    added.push(decision_id);
  }
  for (const id of repoint.keys()) superseded.add(id);
  const pointed = (ids: readonly string[]) => [...new Set(ids.map((id) => repoint.get(id) ?? id))];
  // Only what rests on a fact that left, an invalidated id or a revised decision can change beyond
  // its flag: in the prior, those are the ids' direct dependents.
  const shaken = new Set<string>();
  for (const ids of [gone, roots, repoint.keys()]) {
    for (const id of ids) for (const d of index.dependentsOf(id)) shaken.add(d);
  }
  const decisions: Decision[] = [];
  const freshDecisions: Decision[] = [];
  const priorListsUnique = uniqueDecisionLists.has(priorDecisions);
  const carry = (d: Decision, isNew: boolean) => {
    if (repoint.has(d.decision_id)) {
      if (!isNew) left.push(d.decision_id);
      return;
    }
    const look = isNew || shaken.has(d.decision_id);
    const moved = look && repoint.size > 0 && d.depends_on.some((id) => repoint.has(id));
    const resting = moved || (look && d.depends_on.some((id) => gone.has(id) || roots.has(id)));
    const flag = flagged.has(d.decision_id) || resting;
    if (flag && !d.needs_revision) flagged.add(d.decision_id);
    if (
      !moved &&
      (!flag || d.needs_revision) &&
      d.needs_revision !== false &&
      ((!isNew && priorListsUnique) || unique(d.depends_on))
    ) {
      decisions.push(d); // unchanged: the prior's own object (what is cached by identity holds)
      if (isNew) freshDecisions.push(d);
      return;
    }
    const { needs_revision: _, ...rest } = d;
    const changed: Decision = {
      ...rest,
      depends_on: pointed(d.depends_on),
      ...(flag || d.needs_revision ? { needs_revision: true } : {}),
    };
    decisions.push(changed);
    freshDecisions.push(changed);
  };
  for (const d of priorDecisions) carry(d, false);
  for (const d of newDecisions) carry(d, true);
  uniqueDecisionLists.add(decisions);

  // 4. Edges: the prior's explicit edges whose dependent stays (re-pointed), and the implied ones.
  const staying = new Set<string>();
  const shape = prior ? graphShape(prior) : null;
  if (shape && shape.explicit.length > 0) {
    for (const f of facts) staying.add(f.fact_id);
    for (const d of decisions) staying.add(d.decision_id);
    for (const f of priorFacts) if (!gone.has(f.fact_id)) staying.add(f.fact_id);
  }
  const explicit: DependencyEdge[] = (shape?.explicit ?? [])
    .filter((e) => staying.has(e.dependent))
    .map((e) => {
      const to = repoint.get(e.depends_on);
      return to === undefined ? e : { dependent: e.dependent, depends_on: to };
    });
  const items = { established_facts: facts, decisions };
  let step: GraphStep | null = null;
  try {
    // The draft's graph and a cycle check; its index and chain lengths are the verified state's
    // to work out (verification steps again from the prior, with what it re-injects).
    // Told what changed when the prior's ids are each used once (new ids are never a prior's).
    step = prior
      ? stepGraph(prior, items, explicit, {
          levels: false,
          index: false,
          ...(priorUnique
            ? {
                known: {
                  fresh: { facts: newFacts, decisions: freshDecisions },
                  gone: left,
                  byId: false,
                },
              }
            : {}),
        })
      : null;
  } catch (err) {
    if (!(err instanceof CanonryError && err.code === 'DEPENDENCY_CYCLE')) throw err;
  }
  const dependency_graph = step?.graph ?? normaliseEdges(items, explicit);
  const cycle = step ? null : DependencyIndex.fromEdges(dependency_graph).findCycle();
  if (cycle) throw cycleError(cycle, 'the contribution makes a cycle');

  // 5. What remains: questions, constraints, the goal.
  const open_questions = uniqueTexts(
    [...(prior?.open_questions ?? []), ...contribution.open_questions],
    contribution.resolved_questions,
  );
  const constraints = uniqueTexts([...(prior?.constraints ?? []), ...contribution.constraints]);
  const goal_state = advanceGoal(ctx.goal_state, contribution.completed);

  const prior_cso_hash = prior ? prior.cso_hmac : ctx.genesis;
  const draft: UnsealedCso = {
    cso_id: csoId(ctx.session_id, n, prior_cso_hash),
    window_number: n,
    prior_cso_hash,
    established_facts: facts,
    decisions,
    open_questions,
    constraints,
    goal_state,
    dependency_graph,
    verified: false,
  };
  if (step && prior) {
    rememberStep(draft, step, prior);
    drafts.set(draft, prior);
  }
  return {
    draft,
    added,
    superseded: [...superseded],
    invalidated,
    flagged: [...flagged],
    retired: [...gone, ...repoint.keys()],
    refused,
    ignored,
  };
}

const EMPTY = { established_facts: [], decisions: [] } as const;

/**
 * Look-ups of the prior's facts and decisions by id: through the CSO's own map (kept with it, see
 * `itemsById`) when its ids are unique, as a checked CSO's are; else maps of each list.
 */
function priorItems(prior: CognitiveStateObject | null): {
  fact: (id: string) => EstablishedFact | undefined;
  decision: (id: string) => Decision | undefined;
  /** Every id of the prior is used once. */
  unique: boolean;
} {
  if (!prior) return { fact: () => undefined, decision: () => undefined, unique: true };
  const all = uniqueItemsById(prior);
  if (all) {
    return {
      unique: true,
      fact: (id) => {
        const item = all.get(id);
        return item !== undefined && 'fact_id' in item ? item : undefined;
      },
      decision: (id) => {
        const item = all.get(id);
        return item !== undefined && 'decision_id' in item ? item : undefined;
      },
    };
  }
  const facts = new Map(prior.established_facts.map((f) => [f.fact_id, f]));
  const decisions = new Map(prior.decisions.map((d) => [d.decision_id, d]));
  return { fact: (id) => facts.get(id), decision: (id) => decisions.get(id), unique: false };
}

/** Each draft this module made over a prior CSO, and that prior: verification starts from it. */
const drafts = new WeakMap<object, CognitiveStateObject>();

/** The prior CSO a draft was merged onto, when `mergeContribution` made it. */
export function draftPrior(draft: UnsealedCso): CognitiveStateObject | undefined {
  return drafts.get(draft);
}

/**
 * Decision lists this module made: each decision's `depends_on` names each id once (a carried
 * decision's was checked, a new or changed one's was made so), which carrying them again need not
 * check decision by decision (the list is a CSO's from the draft to its sealed form).
 */
const uniqueDecisionLists = new WeakSet<readonly Decision[]>();

/** `depends_on` lists (by identity: items never change) found to name each id once. */
const uniqueLists = new WeakSet<readonly string[]>();

/** Whether `ids` names each id once; a list found so is not looked at again when carried. */
function unique(ids: readonly string[]): boolean {
  if (uniqueLists.has(ids)) return true;
  if (ids.length > 16) {
    if (new Set(ids).size !== ids.length) return false;
  } else {
    for (let i = 1; i < ids.length; i++) {
      for (let j = 0; j < i; j++) if (ids[i] === ids[j]) return false;
    }
  }
  uniqueLists.add(ids);
  return true;
}

/**
 * `remaining` minus what the window completed; completion moves by the completed share of what was
 * remaining: `p + (1 − p)·k/r`, which is done/(done + remaining) whenever `p` was.
 */
export function advanceGoal(goal: GoalState, completed: readonly string[]): GoalState {
  const remaining = uniqueTexts(goal.remaining, completed);
  const r = uniqueTexts(goal.remaining).length;
  const k = r - remaining.length;
  const p = goal.completion;
  const completion = r === 0 ? p : Math.min(1, Math.round((p + ((1 - p) * k) / r) * 1e6) / 1e6);
  return { ...goal, remaining, completion };
}
