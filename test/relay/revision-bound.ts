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
 * With `also`, a second decision (d_cache, revised as d_cache2) rests on the same facts, so window
 * 4 takes two to the bound.
 */
export async function atTheRevisionBound(
  runtime: CanonryRuntime,
  agent: Principal,
  { also = false }: { also?: boolean } = {},
) {
  const relay = runtime.relay;
  const { session } = await relay.start(agent, {
    mode: 'AGENTIC',
    objective: 'Pick a database',
    remaining: ['pick'],
    max_revisions: 1,
  });
  const id = session.session_id;
  const names = also ? ['db', 'cache'] : ['db'];
  const decide = (suffix: string, on: string, revising: boolean) => ({
    decisions: names.map((name) => ({
      decision_id: `d_${name}${suffix}`,
      choice: `use the ${name === 'db' ? 'database' : 'cache'} ${on} allows`,
      rationale: `${on} holds`,
      depends_on: [on],
      ...(revising ? { revises: `d_${name}` } : {}),
    })),
  });
  await relay.completeWindow(agent, id, '', {
    facts: [fact('f_team', 'the team runs PostgreSQL')],
    ...decide('', 'f_team', false),
  });
  await relay.completeWindow(agent, id, '', {
    facts: [fact('f_team2', 'the team moves to MongoDB', { supersedes: ['f_team'] })],
  });
  const target = (await relay.prepareWindow(agent, id)).revision_target;
  expect(names.map((name) => `d_${name}`)).toContain(target);
  const w3 = await relay.completeWindow(agent, id, '', decide('2', 'f_team2', true));
  for (const name of names) {
    expect(w3.cso!.decisions.find((d) => d.decision_id === `d_${name}2`)?.revisions).toBe(1);
  }
  const supersedeAgain = {
    facts: [fact('f_team3', 'the team stays on PostgreSQL after all', { supersedes: ['f_team2'] })],
  };
  return { relay, id, supersedeAgain };
}
