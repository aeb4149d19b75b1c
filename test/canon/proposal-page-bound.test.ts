// A page of proposals is chosen in SQL by who may read it and by status: another principal's
// personal proposals, and proposals of another status, lying between the rows a page shows are never
// read into the process — on both engines. A store made before proposals had a holder is given one,
// filled from its records, when this code opens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal, ProposalPageQuery } from '../../src/canon/index.js';
import { proposalPageSql } from '../../src/canon/proposal-page.js';
import type { Queryable } from '../../src/store/index.js';
import {
  CANON_ENGINES,
  create,
  type EngineRuntime,
  PROJECT,
  principals,
} from '../helpers/canon.js';

/** What the scenario made, in journal order: who holds it (null: the project), and its status. */
interface Made {
  readonly id: string;
  readonly holder: string | null;
  readonly status: 'pending' | 'committed' | 'rejected';
}

/** The store as `all` alone, with every row it hands to the reader counted. */
function counting(store: Pick<Queryable, 'all'>) {
  const seen = { rows: 0 };
  const db: Pick<Queryable, 'all'> = {
    all: async (sql, params) => {
      const rows = await store.all(sql, params);
      seen.rows += rows.length;
      return rows as never;
    },
  };
  return { db, seen };
}

/** What a page shows a viewer, from the scenario alone. */
function expected(made: readonly Made[], viewer: string, q: ProposalPageQuery): string[] {
  const at = new Map(made.map((m, i) => [m.id, i]));
  const readable = made.filter((m) => m.holder === null || m.holder === viewer);
  const chosen = readable.filter((m) =>
    q.status === undefined
      ? true
      : q.status === 'decided'
        ? m.status !== 'pending'
        : m.status === q.status,
  );
  const ordered = q.order === 'newest' ? [...chosen].reverse() : chosen;
  return ordered
    .filter((m) => q.after === undefined || (at.get(m.id) ?? -1) > q.after)
    .filter((m) => q.before === undefined || (at.get(m.id) ?? -1) < q.before)
    .slice(0, q.limit)
    .map((m) => m.id);
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`a page of proposals, bounded, on ${engine.name}`, () => {
    const who = principals();
    const made: Made[] = [];
    /** The journal seq of each proposal made, by object id. */
    const seqOf = new Map<string, number>();
    let e: EngineRuntime;

    async function make(p: Principal, id: string, personal: boolean) {
      const outcome = await create(e.runtime, p, id, {
        title: id,
        text: `The value of ${id}.`,
        visibility: personal ? 'personal' : 'project',
        // An agent's decision waits for a person.
        ...(p.role === 'agent' ? { object_type: 'decision' } : {}),
      });
      const status = p.role === 'agent' ? 'pending' : 'committed';
      // The scenario's ground truth: people commit their own notes, an agent's decisions wait.
      expect(outcome.proposal.status).toBe(status);
      made.push({ id, holder: personal ? p.id : null, status });
      seqOf.set(id, outcome.proposal.seq);
      return outcome;
    }

    beforeAll(async () => {
      e = await engine.open();
      await make(who.owner, 'shared.a', false);
      await make(who.agent, 'agent.a', false);
      for (let i = 0; i < 150; i++) await make(who.editor, `eddie.p${i}`, true);
      await make(who.owner, 'olivia.own', true);
      const rejected = await make(who.agent, 'agent.b', false);
      await e.runtime.canon.reject(who.owner, rejected.proposal.proposal_id, 'not now');
      const last = made.at(-1);
      if (last) made[made.length - 1] = { ...last, status: 'rejected' };
      for (let i = 0; i < 150; i++) await make(who.editor, `eddie.q${i}`, true);
      await make(who.owner, 'shared.b', false);
      await make(who.agent, 'agent.c', false);
    }, 240_000);
    afterAll(() => e?.close());

    /** A query whose cursors are given as indexes into `made`, turned into journal seqs. */
    function query(q: ProposalPageQuery): {
      asSeqs: ProposalPageQuery;
      asIndexes: ProposalPageQuery;
    } {
      const seqAt = (i: number | undefined) => {
        const id = i === undefined ? undefined : made[i]?.id;
        return id === undefined ? undefined : seqOf.get(id);
      };
      const after = seqAt(q.after);
      const before = seqAt(q.before);
      return {
        asIndexes: q,
        asSeqs: {
          ...q,
          ...(after === undefined ? {} : { after }),
          ...(before === undefined ? {} : { before }),
        },
      };
    }

    const QUERIES: ProposalPageQuery[] = [
      { limit: 3 },
      { limit: 4, order: 'newest' },
      { limit: 2, status: 'pending' },
      { limit: 2, status: 'pending', order: 'newest' },
      { limit: 3, status: 'decided' },
      { limit: 1, status: 'rejected' },
      { limit: 2, after: 1 },
      { limit: 5, order: 'newest', before: 305 },
      { limit: 2, status: 'committed', after: 1 },
    ];

    it.each(QUERIES)('the owner reads %o with at most its limit of rows', async (q) => {
      const { asSeqs, asIndexes } = query(q);
      const { db, seen } = counting(e.runtime.store);
      const page = await e.runtime.canon.readerFor(who.owner, db).proposalPage(asSeqs);
      expect(page.map((p) => p.object_id)).toEqual(expected(made, who.owner.id, asIndexes));
      expect(seen.rows).toBeLessThanOrEqual(q.limit);
    });

    it.runIf(engine.name === 'sqlite')(
      "reads each page's ranges from an index, never by scanning the project's proposals",
      async () => {
        for (const q of QUERIES) {
          for (const viewer of [who.owner.id, null]) {
            const { sql, params } = proposalPageSql(query(q).asSeqs, viewer);
            const plan = await e.runtime.store.all<{ detail: string }>(
              `EXPLAIN QUERY PLAN ${sql}`,
              [PROJECT, ...params],
            );
            const reads = plan.map((r) => r.detail).filter((d) => d.includes('canon_proposals'));
            expect(reads.length).toBeGreaterThan(0);
            // A principal's ranges are chosen by holder and status; the operator's by status alone.
            const range =
              viewer !== null
                ? 'canon_proposals_holder (project=? AND holder=? AND status=?'
                : q.status !== undefined
                  ? 'canon_proposals_status (project=? AND status=?'
                  : 'canon_proposals_seq (project=?';
            for (const read of reads)
              expect(read).toContain(`SEARCH canon_proposals USING INDEX ${range}`);
          }
        }
      },
    );

    it('the editor reads its own personal proposals among the shared ones, a page at a time', async () => {
      const all: string[] = [];
      let after: number | undefined;
      for (let n = 0; n < 100; n++) {
        const { db, seen } = counting(e.runtime.store);
        const page = await e.runtime.canon
          .readerFor(who.editor, db)
          .proposalPage({ limit: 40, ...(after === undefined ? {} : { after }) });
        expect(seen.rows).toBeLessThanOrEqual(40);
        all.push(...page.map((p) => p.object_id));
        if (page.length < 40) break;
        after = page.at(-1)?.seq;
      }
      expect(all).toEqual(expected(made, who.editor.id, { limit: made.length }));
    });

    it('a store whose proposals had no holder gets one from its records when opened', async () => {
      const { store } = e.runtime;
      await store.exec('DROP INDEX canon_proposals_status; DROP INDEX canon_proposals_holder;');
      await store.exec('ALTER TABLE canon_proposals DROP COLUMN holder');
      await store.run('DELETE FROM canonry_migrations WHERE name = $1', ['canon-proposals-holder']);
      const again = await e.another();
      const rows = await again.store.all<{ object_id: string; holder: string | null }>(
        'SELECT object_id, holder FROM canon_proposals WHERE project = $1',
        [PROJECT],
      );
      const holders = new Map(rows.map((r) => [r.object_id, r.holder]));
      expect(holders).toEqual(new Map(made.map((m) => [m.id, m.holder])));
      const page = await again.canon
        .readerFor(who.owner)
        .proposalPage({ limit: 10, order: 'newest' });
      expect(page.map((p) => p.object_id)).toEqual(
        expected(made, who.owner.id, { limit: 10, order: 'newest' }),
      );
    });
  });
}
