import { CanonryError } from '../core/index.js';
import { DependencyIndex, normaliseEdges, scratchIds } from './graph.js';
import { CSO_LIMITS, UNCAPTURED_CONFIDENCE } from './limits.js';
import { normaliseStatement } from './statement.js';
import type { CognitiveStateObject, EstablishedFact, UnsealedCso, Verification } from './types.js';

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
  const drafted = new Map(draft.established_facts.map((f) => [f.fact_id, f]));
  const repaired: string[] = [];
  for (const f of valid) {
    const d = drafted.get(f.fact_id);
    if (!d || !sameFact(d, f)) repaired.push(f.fact_id);
  }
  const preservation = valid.length === 0 ? 1 : (valid.length - repaired.length) / valid.length;

  const validIds = new Set(valid.map((f) => f.fact_id));
  const facts: EstablishedFact[] = [
    ...valid,
    ...draft.established_facts.filter((f) => !validIds.has(f.fact_id)),
  ];

  const n = draft.window_number;
  const stated = new Set(facts.map((f) => normaliseStatement(f.statement)));
  const ids = new Set([
    ...facts.map((f) => f.fact_id),
    ...draft.decisions.map((d) => d.decision_id),
  ]);
  const uncaptured: string[] = [];
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
    let fact_id: string;
    do fact_id = `u${n}.${++counter}`;
    while (ids.has(fact_id));
    ids.add(fact_id);
    stated.add(key);
    facts.push({
      fact_id,
      statement: claim,
      provenance: 'CONVERSATION',
      provenance_ref: `window:${n}`,
      confidence: UNCAPTURED_CONFIDENCE,
      window_origin: n,
    });
    uncaptured.push(claim);
  }

  const items = { established_facts: facts, decisions: draft.decisions };
  const known = new Set([...ids, ...scratchIds(items)]);
  const flagged = new Set(
    draft.decisions.filter((d) => d.needs_revision).map((d) => d.decision_id),
  );
  const dependency_graph = normaliseEdges(items, draft.dependency_graph).filter((e) =>
    ids.has(e.dependent),
  );
  const missing = new Map<string, string[]>();
  for (const e of dependency_graph) {
    if (known.has(e.depends_on) || flagged.has(e.dependent)) continue;
    const list = missing.get(e.dependent);
    if (list) list.push(e.depends_on);
    else missing.set(e.dependent, [e.depends_on]);
  }
  const broken = Object.fromEntries(missing);
  const cycle = DependencyIndex.fromEdges(dependency_graph).findCycle();
  if (cycle) {
    throw new CanonryError('DEPENDENCY_CYCLE', `the draft has a cycle: ${cycle.join(' → ')}`, {
      cycle,
    });
  }
  const verified = missing.size === 0;
  return {
    cso: { ...draft, established_facts: facts, dependency_graph, verified },
    verification: { preservation, repaired, broken_dependencies: broken, uncaptured, verified },
  };
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
