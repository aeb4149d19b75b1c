import { CanonryError } from '../core/index.js';
import { scratchIds } from './graph.js';
import { itemsById, type StepDelta } from './graph-delta.js';
import type { CognitiveStateObject, Decision, EstablishedFact, UnsealedCso } from './types.js';

/**
 * What `checkCsoReferences` checks, for a CSO made from a checked one by `mergeContribution` and
 * `verifyCso` (which built its graph in normal form from the prior's and found every dependency
 * resting on something): ids unique and of one kind, items not from a later window, a result hash
 * only on a TOOL fact, a DERIVED fact resting on a fact — for the items that are new or replaced,
 * and for what rested on items that left. Costs a look-up per item and the changed items' checks.
 */
export function checkReferencesAfter(
  prior: CognitiveStateObject,
  cso: UnsealedCso & { readonly cso_hmac?: string },
  delta?: StepDelta,
): void {
  if (
    delta?.items &&
    delta.prior === prior &&
    delta.lists.facts === cso.established_facts &&
    delta.lists.decisions === cso.decisions &&
    holds(cso, delta.items, delta.fresh)
  ) {
    return;
  }
  const kinds = new Map<string, 'fact' | 'decision'>();
  const priorIds = itemsById(prior);
  cso.established_facts.forEach((f, i) => {
    if (kinds.has(f.fact_id))
      invalid(`/established_facts/${i}/fact_id`, `duplicate id ${f.fact_id}`);
    kinds.set(f.fact_id, 'fact');
    if (priorIds.get(f.fact_id) === f) return;
    const at = `/established_facts/${i}`;
    if (f.window_origin > cso.window_number)
      invalid(`${at}/window_origin`, 'is after the window of the CSO');
    if (f.result_hash !== undefined && f.provenance !== 'TOOL') {
      invalid(`${at}/result_hash`, 'only a TOOL fact states a tool result');
    }
  });
  cso.decisions.forEach((d, i) => {
    if (kinds.has(d.decision_id))
      invalid(`/decisions/${i}/decision_id`, `duplicate id ${d.decision_id}`);
    kinds.set(d.decision_id, 'decision');
    if (priorIds.get(d.decision_id) === d) return;
    if (d.window_origin > cso.window_number) {
      invalid(`/decisions/${i}/window_origin`, 'is after the window of the CSO');
    }
  });
  for (const id of scratchIds(cso)) {
    const kind = kinds.get(id);
    if (kind !== undefined) invalid('/dependency_graph', `scratch id ${id} is also a ${kind} id`);
  }
  // A DERIVED fact rests on a fact (a carried one's may have left).
  cso.established_facts.forEach((f, i) => {
    if (f.provenance === 'DERIVED' && kinds.get(f.provenance_ref) !== 'fact') {
      invalid(`/established_facts/${i}/provenance_ref`, `names no fact: ${f.provenance_ref}`);
    }
  });
}

/**
 * The same checks through what the step found (ids once each, the items that are not the prior's):
 * true when all hold. On false the whole check runs, to name the first problem as it does.
 */
function holds(
  cso: UnsealedCso,
  items: ReadonlyMap<string, EstablishedFact | Decision>,
  fresh: StepDelta['fresh'],
): boolean {
  for (const f of fresh.facts) {
    if (f.window_origin > cso.window_number) return false;
    if (f.result_hash !== undefined && f.provenance !== 'TOOL') return false;
  }
  for (const d of fresh.decisions) if (d.window_origin > cso.window_number) return false;
  for (const id of scratchIds(cso)) if (items.has(id)) return false;
  for (const f of cso.established_facts) {
    if (f.provenance !== 'DERIVED') continue;
    const on = items.get(f.provenance_ref);
    if (on === undefined || !('fact_id' in on)) return false;
  }
  return true;
}

function invalid(path: string, message: string): never {
  throw new CanonryError('INVALID_ARGUMENT', `CSO ${path}: ${message}`, { path });
}
