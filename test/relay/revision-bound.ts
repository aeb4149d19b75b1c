import { expect } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';

const fact = (fact_id: string, statement: string, extra: Record<string, unknown> = {}) => ({
  fact_id,
  statement,
  provenance: 'CONVERSATION',
  ...extra,
});

/**
 * A session with `max_revisions` 1 whose decision d_db2 has been revised once (window 3, after
 * f_team was superseded); `supersedeAgain` is the window 4 contribution that flags it once more.
 */
export async function atTheRevisionBound(runtime: CanonryRuntime, agent: Principal) {
  const relay = runtime.relay;
  const { session } = await relay.start(agent, {
    mode: 'AGENTIC',
    objective: 'Pick a database',
    remaining: ['pick'],
    max_revisions: 1,
  });
  const id = session.session_id;
  const decide = (decision_id: string, on: string, revises?: string) => ({
    decisions: [
      {
        decision_id,
        choice: `use the database ${on} allows`,
        rationale: `${on} holds`,
        depends_on: [on],
        ...(revises ? { revises } : {}),
      },
    ],
  });
  await relay.completeWindow(agent, id, '', {
    facts: [fact('f_team', 'the team runs PostgreSQL')],
    ...decide('d_db', 'f_team'),
  });
  await relay.completeWindow(agent, id, '', {
    facts: [fact('f_team2', 'the team moves to MongoDB', { supersedes: ['f_team'] })],
  });
  expect((await relay.prepareWindow(agent, id)).revision_target).toBe('d_db');
  const w3 = await relay.completeWindow(agent, id, '', decide('d_db2', 'f_team2', 'd_db'));
  expect(w3.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.revisions).toBe(1);
  const supersedeAgain = {
    facts: [fact('f_team3', 'the team stays on PostgreSQL after all', { supersedes: ['f_team2'] })],
  };
  return { relay, id, supersedeAgain };
}
