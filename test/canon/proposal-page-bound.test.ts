// A page of proposals (or of the archive) is chosen in SQL by who may read it and by status: another
// principal's personal rows, and proposals of another status, lying between the rows a page shows
// are never read into the process — on both engines. A store made before proposals and messages had
// a holder is given one, filled from its records, when this code opens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveMessage,
  type PageQuery,
  type Principal,
  type ProposalPageQuery,
} from '../../src/canon/index.js';
import { messagePageSql, proposalPageSql } from '../../src/canon/page.js';
import { CANON_ENGINES, type EngineRuntime, PROJECT, principals } from '../helpers/canon.js';
import { counting, expectIndexedReads, scenarioNote } from '../helpers/page-bound.js';

/** What the scenario made, in journal order: who holds it (null: the project), and its status. */
interface Made {
  readonly id: string;
  readonly holder: string | null;
  readonly status: 'pending' | 'committed' | 'rejected';
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
    /** The messages archived, in journal order (all shared statuses: a message has none). */
    const said: Made[] = [];
    let e: EngineRuntime;

    async function make(p: Principal, id: string, personal: boolean) {
      // People commit their own notes, an agent's decisions wait (`scenarioNote` checks it).
      const outcome = await scenarioNote(e.runtime, p, id, personal);
      const status = p.role === 'agent' ? 'pending' : 'committed';
      made.push({ id, holder: personal ? p.id : null, status });
      seqOf.set(id, outcome.proposal.seq);
      return outcome;
    }

    async function say(p: Principal, id: string, personal: boolean) {
      const m = await archiveMessage(e.runtime.canon, p, {
        message_id: id,
        text: `Note ${id}.`,
        visibility: personal ? 'personal' : 'project',
      });
      expect(m.message_id).toBe(id);
      said.push({ id, holder: personal ? p.id : null, status: 'committed' });
    }

    beforeAll(async () => {
      e = await engine.open();
      await say(who.owner, 'm.shared.a', false);
      for (let i = 0; i < 120; i++) await say(who.editor, `m.eddie.${i}`, true);
      await say(who.owner, 'm.olivia.own', true);
      await say(who.agent, 'm.shared.b', false);
      for (let i = 0; i < 120; i++) await say(who.editor, `m.eddie.z${i}`, true);
      await say(who.owner, 'm.shared.c', false);
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
            // A principal's ranges are chosen by holder and status; the operator's by status alone.
            const range =
              viewer !== null
                ? 'canon_proposals_holder (project=? AND holder=? AND status=?'
                : q.status !== undefined
                  ? 'canon_proposals_status (project=? AND status=?'
                  : 'canon_proposals_seq (project=?';
            await expectIndexedReads(
              e.runtime.store,
              'canon_proposals',
              sql,
              [PROJECT, ...params],
              range,
            );
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

    it.each([{ limit: 2 }, { limit: 3, order: 'newest' }, { limit: 1, after: 1 }] as PageQuery[])(
      'the owner reads the archive, %o, with at most its limit of rows',
      async (q) => {
        // A cursor is given as an index into the archive: the operator's whole archive, which must
        // hold the scenario's messages in the order they were said, names its seq.
        const all = await e.runtime.canon.reader(PROJECT).messagePage({ limit: 1000 });
        expect(all.map((m) => m.message_id)).toEqual(said.map((m) => m.id));
        const after = q.after === undefined ? undefined : all[q.after]?.seq;
        const { db, seen } = counting(e.runtime.store);
        const page = await e.runtime.canon
          .readerFor(who.owner, db)
          .messagePage({ ...q, ...(after === undefined ? {} : { after }) });
        expect(page.map((m) => m.message_id)).toEqual(expected(said, who.owner.id, q));
        expect(seen.rows).toBeLessThanOrEqual(q.limit);
      },
    );

    it.runIf(engine.name === 'sqlite')(
      "reads each page of the archive from an index, never by scanning the project's messages",
      async () => {
        for (const viewer of [who.owner.id, null]) {
          const { sql, params } = messagePageSql({ limit: 5, after: 3 }, viewer);
          const plan = await e.runtime.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, [
            PROJECT,
            ...params,
          ]);
          const reads = plan.map((r) => r.detail).filter((d) => d.includes('canon_messages'));
          expect(reads.length).toBeGreaterThan(0);
          const range =
            viewer === null
              ? 'canon_messages_seq (project=? AND seq>?)'
              : 'canon_messages_holder (project=? AND holder=? AND seq>?)';
          for (const read of reads) {
            expect(read).toContain(`SEARCH canon_messages USING INDEX ${range}`);
          }
        }
      },
    );

    it('a store whose proposals had no holder gets one from its records when opened', async () => {
      const { store } = e.runtime;
      await store.exec('DROP INDEX canon_proposals_status; DROP INDEX canon_proposals_holder;');
      await store.exec('ALTER TABLE canon_proposals DROP COLUMN holder');
      // A store from before these had none of what later migrations made either: the mark of
      // the unclassified, whose partial index reads the holder.
      await store.exec(
        'DROP INDEX canon_messages_unclassified; DROP INDEX canon_messages_unclassified_holder;',
      );
      await store.exec('ALTER TABLE canon_messages DROP COLUMN unclassified');
      await store.exec('DROP INDEX canon_messages_seq; DROP INDEX canon_messages_holder;');
      await store.exec('ALTER TABLE canon_messages DROP COLUMN holder');
      for (const name of [
        'canon-proposals-holder',
        'canon-messages-holder',
        'canon-messages-unclassified',
      ]) {
        await store.run('DELETE FROM canonry_migrations WHERE name = $1', [name]);
      }
      const again = await e.another();
      const rows = await again.store.all<{ object_id: string; holder: string | null }>(
        'SELECT object_id, holder FROM canon_proposals WHERE project = $1',
        [PROJECT],
      );
      const holders = new Map(rows.map((r) => [r.object_id, r.holder]));
      expect(holders).toEqual(new Map(made.map((m) => [m.id, m.holder])));
      const speakers = await again.store.all<{ message_id: string; holder: string | null }>(
        'SELECT message_id, holder FROM canon_messages WHERE project = $1',
        [PROJECT],
      );
      expect(new Map(speakers.map((r) => [r.message_id, r.holder]))).toEqual(
        new Map(said.map((m) => [m.id, m.holder])),
      );
      const archive = await again.canon.readerFor(who.editor).messagePage({ limit: 1000 });
      expect(archive.map((m) => m.message_id)).toEqual(
        expected(said, who.editor.id, { limit: 1000 }),
      );
      const page = await again.canon
        .readerFor(who.owner)
        .proposalPage({ limit: 10, order: 'newest' });
      expect(page.map((p) => p.object_id)).toEqual(
        expected(made, who.owner.id, { limit: 10, order: 'newest' }),
      );
    });
  });
}
