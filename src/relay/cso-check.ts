import { CanonryError } from '../core/index.js';
import { DependencyIndex, scratchIdSet, scratchIds } from './graph.js';
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
    holds(cso, prior, delta.items, delta)
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
 * The same checks through what the step found (ids once each, the items that are not the prior's),
 * for what changed: the prior held, so a carried item breaks a rule only through a new item or one
 * that left. True when all hold; on false the whole check runs, to name the first problem as it
 * does (a false alarm costs only that).
 */
function holds(
  cso: UnsealedCso,
  prior: CognitiveStateObject,
  items: ReadonlyMap<string, EstablishedFact | Decision>,
  delta: StepDelta,
): boolean {
  const isFact = (id: string) => {
    const on = items.get(id);
    return on !== undefined && 'fact_id' in on;
  };
  // Every scratch id of a carried item was the prior's (no item had its id there).
  const scratch = scratchIdSet(prior);
  for (const f of delta.fresh.facts) {
    if (f.window_origin > cso.window_number) return false;
    if (f.result_hash !== undefined && f.provenance !== 'TOOL') return false;
    if (f.provenance === 'TOOL' && items.has(f.provenance_ref)) return false;
    if (f.provenance === 'DERIVED' && !isFact(f.provenance_ref)) return false;
    if (scratch.has(f.fact_id)) return false;
  }
  for (const d of delta.fresh.decisions) {
    if (d.window_origin > cso.window_number) return false;
    if (d.provenance === 'TOOL' && d.provenance_ref !== undefined && items.has(d.provenance_ref))
      return false;
    if (scratch.has(d.decision_id)) return false;
  }
  // A carried DERIVED fact rests on a fact unless its premise left or is now a decision: its
  // premise's dependents in the prior's graph name it.
  const index = DependencyIndex.of(prior);
  const premises = [...delta.gone];
  for (const d of delta.fresh.decisions) premises.push(d.decision_id);
  for (const id of premises) {
    if (isFact(id)) continue;
    for (const dependent of index.dependentsOf(id)) {
      const f = items.get(dependent);
      if (
        f !== undefined &&
        'fact_id' in f &&
        f.provenance === 'DERIVED' &&
        f.provenance_ref === id
      )
        return false;
    }
  }
  return true;
}

function invalid(path: string, message: string): never {
  throw new CanonryError('INVALID_ARGUMENT', `CSO ${path}: ${message}`, { path });
}
