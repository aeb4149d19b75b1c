// A window that retires several facts reads the canon notes it replaces with one statement, not
// one a note (a round trip each on PostgreSQL), and still versions each of them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/canon/index.js';
import type { SqlValue } from '../../src/store/index.js';
import { freshRuntime } from '../helpers/runtime.js';

const PROJECT = 'relay-reads';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };
const ONE_OBJECT = 'SELECT record FROM canon_objects WHERE project = $1 AND object_id = $2';

const fact = (fact_id: string, statement: string, extra: Record<string, unknown> = {}) => ({
  fact_id,
  statement,
  provenance: 'CONVERSATION',
  ...extra,
});

let fresh: Awaited<ReturnType<typeof freshRuntime>>;
beforeEach(async () => {
  fresh = await freshRuntime();
});
afterEach(async () => {
  await fresh.close();
});

describe('completeWindow reads the notes it replaces at once', () => {
  it('retiring five facts reads no note one by one', async () => {
    const { runtime } = fresh;
    const { session } = await runtime.relay.start(AGENT, {
      mode: 'AGENTIC',
      objective: 'move the ledger',
      remaining: ['plan', 'move'],
    });
    const id = session.session_id;
    const figures = [1, 2, 3, 4, 5].map((k) => fact(`fact_${k}`, `the figure ${k} is ${k * 10}`));
    expect(
      (await runtime.relay.completeWindow(AGENT, id, 'Figures.', { facts: figures })).status,
    ).toBe('relayed');
    const store = runtime.canon.journal.store;
    const all = store.all.bind(store);
    const single: SqlValue[][] = [];
    store.all = ((sql: string, params: readonly SqlValue[] = []) => {
      if (sql.replace(/\s+/g, ' ').trim() === ONE_OBJECT) single.push([...params]);
      return all(sql, params);
    }) as typeof store.all;
    const w2 = await runtime.relay.completeWindow(AGENT, id, 'Corrected figures.', {
      facts: [1, 2, 3, 4, 5].map((k) =>
        fact(`fact_${k}_r`, `the figure ${k} is ${k * 10 + 1}`, { supersedes: [`fact_${k}`] }),
      ),
    });
    store.all = all;
    expect(w2.status).toBe('relayed');
    expect(single).toEqual([]);
    const reader = runtime.canon.reader(PROJECT);
    for (const k of [1, 2, 3, 4, 5]) {
      const note = await reader.object(`relay.${id}.fact_${k}`);
      expect(note?.status).toBe('superseded');
    }
  });
});
