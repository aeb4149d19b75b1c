import { CanonryError } from '../core/index.js';
import type { Decision, EstablishedFact, GoalState, RelayMode } from './types.js';

/** §4.2: what each mode's window is for and how to know it succeeded. */
const MODE_CONTRACT: Readonly<
  Record<RelayMode, { objective: (item: string | undefined) => string; success_test: string }>
> = {
  DOCUMENT: {
    objective: (s) => (s === undefined ? 'finish the document' : `write section ${s}`),
    success_test: 'section covers required sub-topics',
  },
  CONVERSATION: {
    objective: () => "answer the user's turn",
    success_test: "user's intent addressed",
  },
  TOOL: {
    objective: (t) =>
      t === undefined ? 'use tool result to advance task' : `use tool result ${t} to advance task`,
    success_test: 'result correctly incorporated',
  },
  AGENTIC: {
    objective: (t) => (t === undefined ? 'complete the task' : `complete sub-task ${t}`),
    success_test: 'sub-task verification passes',
  },
};

export interface GoalInput {
  /** Overrides the mode's objective (the caller knows better, e.g. a user's own words). */
  readonly objective?: string;
  /** What is left: sections, open thread questions, tool outputs, sub-tasks (§4.2). */
  readonly remaining: readonly string[];
  readonly window_number: number;
  /** How many items the whole goal has; without it, each window before this one counts as one done. */
  readonly total?: number;
}

/**
 * §4.2: the window contract for `mode`. The objective names the first remaining item;
 * completion = done / (done + remaining), done = `total − remaining` (or windows so far).
 */
export function goalFor(mode: RelayMode, input: GoalInput): GoalState {
  const contract = MODE_CONTRACT[mode];
  if (!contract) throw new CanonryError('INVALID_ARGUMENT', `no relay mode ${String(mode)}`);
  const remaining = [...input.remaining];
  if (
    input.total !== undefined &&
    (!Number.isInteger(input.total) || input.total < remaining.length)
  ) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'total must be an integer no smaller than remaining',
    );
  }
  const done = input.total !== undefined ? input.total - remaining.length : input.window_number - 1;
  const all = done + remaining.length;
  return {
    mode,
    objective: input.objective ?? contract.objective(remaining[0]),
    remaining,
    success_test: contract.success_test,
    completion: all === 0 ? 1 : Math.round((done / all) * 1e6) / 1e6,
  };
}

/**
 * §6.2 step 3: the contract of a REVISION window — "revise decision X given new fact Y" — whose
 * remaining work is the decision and then each dependent to re-evaluate.
 */
export function revisionGoal(
  decision: Pick<Decision, 'decision_id'>,
  newFact: Pick<EstablishedFact, 'fact_id'>,
  dependents: readonly string[],
  mode: RelayMode = 'AGENTIC',
): GoalState {
  return {
    mode,
    objective: `revise decision ${decision.decision_id} given new fact ${newFact.fact_id}`,
    remaining: [decision.decision_id, ...dependents.filter((d) => d !== decision.decision_id)],
    success_test: `a revised decision whose rationale holds given ${newFact.fact_id}`,
    completion: 0,
  };
}
