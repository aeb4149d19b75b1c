import type { CanonryRuntime } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';

/** A fact the model states in a window. */
export const fact = (fact_id: string, statement: string) => ({
  fact_id,
  statement,
  provenance: 'CONVERSATION' as const,
});

/**
 * A DOCUMENT session of two windows: the first establishes the ledger's regions and size and
 * decides to copy region by region because of the size; the second supersedes the size, so the
 * decision needs a revision. Returns the session's id.
 */
export async function ledgerSession(
  runtime: CanonryRuntime,
  agent: Principal,
  objective = 'Write the migration report',
): Promise<string> {
  const started = await runtime.relay.start(agent, {
    mode: 'DOCUMENT',
    objective,
    remaining: ['inventory', 'plan', 'report'],
  });
  const id = started.session.session_id;
  await runtime.relay.completeWindow(agent, id, 'Two regions hold the ledger.', {
    facts: [
      fact('fact_regions', 'two regions hold the ledger'),
      fact('fact_size', 'the ledger is 2 TB'),
    ],
    decisions: [
      {
        decision_id: 'decision_copy',
        choice: 'copy region by region',
        rationale: 'the ledger is 2 TB',
        depends_on: ['fact_size'],
      },
    ],
    completed: ['inventory'],
  });
  await runtime.relay.completeWindow(agent, id, 'The ledger is 3 TB now.', {
    facts: [
      fact('fact_regions', 'two regions hold the ledger'),
      { ...fact('fact_size_3', 'the ledger is 3 TB'), supersedes: ['fact_size'] },
    ],
    completed: ['plan'],
  });
  return id;
}

/** The window that revises the copy decision of {@link ledgerSession} given the new size. */
export function reviseCopy(runtime: CanonryRuntime, agent: Principal, id: string) {
  return runtime.relay.completeWindow(agent, id, 'Still region by region.', {
    facts: [fact('fact_regions', 'two regions hold the ledger')],
    decisions: [
      {
        decision_id: 'decision_copy_r1',
        choice: 'copy region by region',
        rationale: 'the ledger is 3 TB',
        depends_on: ['fact_size_3'],
        revises: 'decision_copy',
      },
    ],
  });
}
