import { CanonryError } from '../core/index.js';
import { edgeKey } from './graph.js';
import { knownNormal, uniqueItemsById } from './graph-delta.js';
import type {
  CognitiveStateObject,
  Decision,
  DependencyEdge,
  EstablishedFact,
  GoalState,
} from './types.js';

/**
 * What a window journals of its CSO: the header and how its items differ from the last window's,
 * not the whole state (a window's change is small; its state grows with the session). Folding the
 * changes of a session's windows in order gives each window's CSO back, exactly.
 *
 * - facts and decisions: `removed` ids leave; each `put` item takes the place of the prior item of
 *   its id (same position), or, when the prior has none, is appended, in the order given;
 * - edges: `removed` leave, `added` join, and the graph is kept in its normal order (sorted by
 *   dependent, then depends_on, in UTF-16 code units), which every CSO the relay seals is in;
 * - `base: 'empty'` folds onto nothing (window 1, and a CSO whose items did not keep their order).
 */

/** How one list of items differs from the prior's. */
export interface ItemsChange<T> {
  readonly removed: readonly string[];
  readonly put: readonly T[];
}

/** A CSO's header: every field but its three lists. */
export interface CsoHeader {
  readonly cso_id: string;
  readonly window_number: number;
  readonly prior_cso_hash: string;
  readonly open_questions: readonly string[];
  readonly constraints: readonly string[];
  readonly goal_state: GoalState;
  readonly cso_hmac: string;
  readonly verified: boolean;
}

/** A window's CSO as its change from the last window's. */
export interface CsoChange extends CsoHeader {
  readonly base: 'prior' | 'empty';
  readonly established_facts: ItemsChange<EstablishedFact>;
  readonly decisions: ItemsChange<Decision>;
  readonly dependency_graph: {
    readonly removed: readonly DependencyEdge[];
    readonly added: readonly DependencyEdge[];
  };
}

export const compareEdges = (a: DependencyEdge, b: DependencyEdge): number =>
  a.dependent < b.dependent
    ? -1
    : a.dependent > b.dependent
      ? 1
      : a.depends_on < b.depends_on
        ? -1
        : a.depends_on > b.depends_on
          ? 1
          : 0;

function isNormal(edges: readonly DependencyEdge[]): boolean {
  for (let i = 1; i < edges.length; i++)
    if (compareEdges(edges[i - 1]!, edges[i]!) >= 0) return false;
  return true;
}

/**
 * The change of `next`'s items from `prior`'s, or null when `next` does not keep the prior's order
 * (an item moved, or a new one came before a prior one): such a list is journaled whole. Walks both
 * lists side by side: an item carried by identity costs a comparison; `priorIds` (the prior's ids,
 * which a stepped CSO keeps) tells a new item from a prior one that moved.
 */
function itemsChange<T extends object>(
  prior: readonly T[],
  next: readonly T[],
  idOf: (item: T) => string,
  priorIds: { has(id: string): boolean },
): ItemsChange<T> | null {
  const removed: string[] = [];
  const put: T[] = [];
  let i = 0; // the position in `next` the next prior item that stays must take
  for (const item of prior) {
    const at = next[i];
    if (at === item) {
      i++;
      continue;
    }
    const id = idOf(item);
    if (at !== undefined && idOf(at) === id) {
      put.push(at); // replaced in place
      i++;
    } else removed.push(id); // gone — or moved, which the new items' ids below tell
  }
  for (; i < next.length; i++) {
    const item = next[i]!;
    if (priorIds.has(idOf(item))) return null;
    put.push(item);
  }
  return { removed, put };
}

/** Both sorted edge lists compared: what left and what joined (the prior's objects where equal). */
function edgesChange(
  prior: readonly DependencyEdge[],
  next: readonly DependencyEdge[],
): { removed: DependencyEdge[]; added: DependencyEdge[] } {
  const removed: DependencyEdge[] = [];
  const added: DependencyEdge[] = [];
  let i = 0;
  let j = 0;
  while (i < prior.length || j < next.length) {
    const a = prior[i];
    const b = next[j];
    if (a !== undefined && a === b) {
      i++;
      j++;
      continue;
    }
    const c = a === undefined ? 1 : b === undefined ? -1 : compareEdges(a, b);
    if (c === 0) {
      i++;
      j++;
    } else if (c < 0) {
      removed.push(a!);
      i++;
    } else {
      added.push(b!);
      j++;
    }
  }
  return { removed, added };
}

function headerOf(cso: CognitiveStateObject): CsoHeader {
  return {
    cso_id: cso.cso_id,
    window_number: cso.window_number,
    prior_cso_hash: cso.prior_cso_hash,
    open_questions: cso.open_questions,
    constraints: cso.constraints,
    goal_state: cso.goal_state,
    cso_hmac: cso.cso_hmac,
    verified: cso.verified,
  };
}

/** The change that folds `prior` (null: nothing) into `next`. */
export function csoChange(
  prior: CognitiveStateObject | null,
  next: CognitiveStateObject,
): CsoChange {
  if (!knownNormal(next) && !isNormal(next.dependency_graph)) {
    throw new CanonryError('INTERNAL', 'a relayed CSO has its graph in normal order');
  }
  // The prior's ids tell a new item from a moved one (duplicate ids: the state is journaled whole).
  const ids = prior ? uniqueItemsById(prior) : null;
  const facts =
    prior && ids
      ? itemsChange(prior.established_facts, next.established_facts, (f) => f.fact_id, ids)
      : null;
  const decisions =
    prior && ids ? itemsChange(prior.decisions, next.decisions, (d) => d.decision_id, ids) : null;
  if (
    !prior ||
    !facts ||
    !decisions ||
    (!knownNormal(prior) && !isNormal(prior.dependency_graph))
  ) {
    return {
      ...headerOf(next),
      base: 'empty',
      established_facts: { removed: [], put: next.established_facts },
      decisions: { removed: [], put: next.decisions },
      dependency_graph: { removed: [], added: next.dependency_graph },
    };
  }
  return {
    ...headerOf(next),
    base: 'prior',
    established_facts: facts,
    decisions,
    dependency_graph: edgesChange(prior.dependency_graph, next.dependency_graph),
  };
}

function foldItems<T extends object>(
  prior: readonly T[],
  change: ItemsChange<T>,
  idOf: (item: T) => string,
): T[] {
  const removed = new Set(change.removed);
  const put = new Map<string, T>();
  for (const item of change.put) put.set(idOf(item), item);
  const out: T[] = [];
  for (const item of prior) {
    const id = idOf(item);
    if (removed.has(id)) continue;
    const replaced = put.get(id);
    if (replaced) {
      out.push(replaced);
      put.delete(id);
    } else out.push(item);
  }
  for (const item of change.put) if (put.get(idOf(item)) === item) out.push(item);
  return out;
}

function foldEdges(
  prior: readonly DependencyEdge[],
  change: CsoChange['dependency_graph'],
): DependencyEdge[] {
  const removed = new Set(change.removed.map(edgeKey));
  const kept = removed.size === 0 ? prior : prior.filter((e) => !removed.has(edgeKey(e)));
  const added = [...change.added].sort(compareEdges);
  const out: DependencyEdge[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length || j < added.length) {
    const a = kept[i];
    const b = added[j];
    const c = a === undefined ? 1 : b === undefined ? -1 : compareEdges(a, b);
    if (c < 0) out.push(kept[i++]!);
    else if (c > 0) out.push(added[j++]!);
    else {
      out.push(kept[i++]!);
      j++;
    }
  }
  return out;
}

/** The CSO a change makes of the last window's (see the module comment). */
export function applyChange(
  prior: CognitiveStateObject | null,
  change: CsoChange,
): CognitiveStateObject {
  const from = change.base === 'empty' ? null : prior;
  if (change.base === 'prior' && !prior) {
    throw new CanonryError('INVALID_ARGUMENT', 'a change of a CSO needs the CSO before it');
  }
  return {
    cso_id: change.cso_id,
    window_number: change.window_number,
    prior_cso_hash: change.prior_cso_hash,
    established_facts: foldItems(
      from?.established_facts ?? [],
      change.established_facts,
      (f) => f.fact_id,
    ),
    decisions: foldItems(from?.decisions ?? [], change.decisions, (d) => d.decision_id),
    open_questions: change.open_questions,
    constraints: change.constraints,
    goal_state: change.goal_state,
    dependency_graph: foldEdges(from?.dependency_graph ?? [], change.dependency_graph),
    cso_hmac: change.cso_hmac,
    verified: change.verified,
  };
}
