import { compareCodeUnits } from '../core/index.js';
import { DependencyIndex } from './graph.js';
import type { RelayWindowRecord } from './session-types.js';
import type { CognitiveStateObject, Decision } from './types.js';

/**
 * The decisions a revision window is due for (§6.2): flagged by an invalidation and not escalated
 * past the revision bound (those wait for a person, §6.3). Ordered so that a decision comes before
 * the flagged decisions resting on it — the premise is revised before what was built on it — then
 * by id.
 */
export function pendingRevisions(
  cso: CognitiveStateObject,
  escalated: ReadonlySet<string> = new Set(),
): Decision[] {
  const due = cso.decisions.filter(
    (d) => d.needs_revision === true && d.escalated === undefined && !escalated.has(d.decision_id),
  );
  if (due.length < 2) return due;
  const index = DependencyIndex.of(cso);
  const ids = new Set(due.map((d) => d.decision_id));
  const above = new Map(
    due.map((d) => {
      const closure = index.closure([d.decision_id]);
      let n = 0;
      for (const id of closure) if (id !== d.decision_id && ids.has(id)) n++;
      return [d.decision_id, n] as const;
    }),
  );
  return due.sort(
    (a, b) =>
      above.get(a.decision_id)! - above.get(b.decision_id)! ||
      compareCodeUnits(a.decision_id, b.decision_id),
  );
}

/** Where a session stands after a window: complete when nothing of its work remains and no revision is due. */
export function statusAfter(
  window: Pick<RelayWindowRecord, 'remaining' | 'cso'>,
): 'active' | 'complete' {
  return window.remaining.length === 0 && pendingRevisions(window.cso).length === 0
    ? 'complete'
    : 'active';
}
