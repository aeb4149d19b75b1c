import type { GraphItems } from './graph.js';
import { itemsById, type StepDelta } from './graph-delta.js';
import { LayeredMap } from './layered-map.js';
import { statementKey } from './statement.js';
import type { EstablishedFact } from './types.js';

/**
 * A CSO's facts by the normal form of their statements (TOOL facts aside: a tool's reading is
 * matched by its scratch id, never by wording): for each form, the ids stating it in list order.
 * A window looks up each fact it does not restate word for word by id; with the index of its prior
 * already made, that costs the look-ups, not a pass over every prior fact.
 *
 * An index is made once per CSO object (kept weakly) and, when a window seals, derived from its
 * prior's for what the window changed: the forms of the facts that left and of the new ones,
 * appended after every prior fact as `mergeContribution` and `verifyCso` place them.
 */
export class StatementIndex {
  readonly #forms: LayeredMap<string, readonly string[]>;

  private constructor(forms: LayeredMap<string, readonly string[]>) {
    this.#forms = forms;
  }

  /** The index of `facts`, in their order. */
  static of(facts: readonly EstablishedFact[]): StatementIndex {
    const forms = new Map<string, string[]>();
    for (const f of facts) {
      if (f.provenance === 'TOOL') continue;
      const key = statementKey(f);
      const ids = forms.get(key);
      if (ids) ids.push(f.fact_id);
      else forms.set(key, [f.fact_id]);
    }
    return new StatementIndex(new LayeredMap<string, readonly string[]>(forms));
  }

  /** The first fact (in list order) stating `key` that `skip` does not pass over. */
  first(key: string, skip: (id: string) => boolean): string | undefined {
    const ids = this.#forms.get(key);
    if (ids === undefined) return undefined;
    for (const id of ids) if (!skip(id)) return id;
    return undefined;
  }

  /**
   * The index of this list without `removed` (facts of it) and with `added` after every fact it
   * holds. Costs the changes (and, now and then, folding them into a new base).
   */
  derive(removed: readonly EstablishedFact[], added: readonly EstablishedFact[]): StatementIndex {
    const forms = this.#forms.next();
    for (const f of removed) {
      if (f.provenance === 'TOOL') continue;
      const key = statementKey(f);
      const ids = forms.get(key)?.filter((id) => id !== f.fact_id) ?? [];
      if (ids.length > 0) forms.set(key, ids);
      else forms.delete(key);
    }
    for (const f of added) {
      if (f.provenance === 'TOOL') continue;
      const key = statementKey(f);
      forms.set(key, [...(forms.get(key) ?? []), f.fact_id]);
    }
    return new StatementIndex(forms.compact());
  }
}

const indexes = new WeakMap<object, StatementIndex>();

/** The statement index of `cso`'s facts (made once per CSO object). */
export function statementIndexOf(cso: {
  readonly established_facts: readonly EstablishedFact[];
}): StatementIndex {
  let index = indexes.get(cso);
  if (!index) {
    index = StatementIndex.of(cso.established_facts);
    indexes.set(cso, index);
  }
  return index;
}

/**
 * Gives `next` — stepped from its prior (`delta`: the prior's items that left, the new facts, which
 * `mergeContribution` and `verifyCso` append after the prior's that stay) — the prior's index
 * derived for the change, when the prior has one and its ids are each used once. A new fact under
 * a prior fact's id would stand in that fact's place rather than at the end: then nothing is
 * derived (the index is made when first needed).
 */
export function carryStatementIndex(delta: StepDelta, next: object): void {
  const index = indexes.get(delta.prior);
  if (!index) return;
  const prior = delta.prior as GraphItems;
  const items = itemsById(prior);
  if (items.size !== prior.established_facts.length + prior.decisions.length) return;
  const priorFact = (id: string): EstablishedFact | undefined => {
    const item = items.get(id);
    return item !== undefined && 'fact_id' in item ? item : undefined;
  };
  if (delta.fresh.facts.some((f) => priorFact(f.fact_id) !== undefined)) return;
  const removed: EstablishedFact[] = [];
  for (const id of delta.gone) {
    const f = priorFact(id);
    if (f) removed.push(f);
  }
  indexes.set(next, index.derive(removed, delta.fresh.facts));
}
